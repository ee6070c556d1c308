#include "analyses/HostFacts.h"

#include "analyses/HostFlow.h"
#include "analyses/TensorDevice.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <map>
#include <optional>
#include <set>

using namespace clang;

namespace torchtidy {

namespace {
// The calls of each function in the user code of a TU, and the functions
// whose address is taken (called from where the code does not show).
class CallIndex : public RecursiveASTVisitor<CallIndex> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee()) {
      Calls[FD->getCanonicalDecl()].push_back(C);
      if (const auto *DRE = dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreParenImpCasts()))
        Callees.insert(DRE);
    }
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      Defined.push_back(FD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D->getDecl()))
      Named.push_back({D, FD->getCanonicalDecl()});
    return true;
  }
  void finish() {
    for (const auto &[D, FD] : Named)
      if (!Callees.count(D))
        AddressTaken.insert(FD);
  }

  std::map<const FunctionDecl *, std::vector<const CallExpr *>> Calls;
  std::set<const FunctionDecl *> AddressTaken;
  std::vector<const FunctionDecl *> Defined;

private:
  std::set<const DeclRefExpr *> Callees;
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> Named;
};

struct State {
  ASTContext &Ctx;
  ProgramSummaries *Program;
  std::string Self;  // this TU's main file, naming the facts it exports
  std::optional<CallIndex> Index;
  std::map<const ParmVarDecl *, bool> Params;  // answers that hold whatever is open

  CallIndex &index() {
    if (!Index) {
      Index.emplace();
      for (Decl *D : Ctx.getTraversalScope())
        Index->TraverseDecl(D);
      Index->finish();
    }
    return *Index;
  }
  bool programHas(const std::string &Key) { return Program && Program->lookup(Key); }
};

thread_local State *Current = nullptr;

// Facts are keyed apart from USRs (which start with "c:"): what the calls
// of one TU pass for a parameter, and that a function returns host values.
std::string paramKey(const std::string &Usr, unsigned I) {
  return "torchtidy-host-param:" + Usr + "#" + std::to_string(I) + "@";
}
std::string returnsKey(const std::string &Usr) { return "torchtidy-host-returns:" + Usr; }

// Parameters are followed for functions whose calls the code shows: not a
// virtual method, a constructor, a lambda, a library's function, or a
// module's forward (LibTorch calls it: module(x), Sequential, AnyModule).
bool followed(const FunctionDecl &FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  return !(MD && (MD->isVirtual() || isa<CXXConstructorDecl>(MD) || MD->getParent()->isLambda() ||
                  (MD->getIdentifier() && MD->getName() == "forward" &&
                   isModuleClass(MD->getParent())))) &&
         !isTorchDecl(&FD) && !FD.isInStdNamespace() && !FD.isDependentContext();
}

bool tracked(QualType T) { return isTensorType(T) || host::holdsTensors(T); }

bool argOnHost(const Expr *A, QualType Param, int Depth, host::Opened &Open) {
  return A && (isTensorType(Param) ? host::onHost(A, Depth, Open)
                                   : host::containerOnHost(A, Depth, Open));
}
} // namespace

HostFactsScope::HostFactsScope(ASTContext &Ctx, ProgramSummaries *Program) {
  const SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  Current = new State{Ctx, Program, Main ? Main->getName().str() : "", std::nullopt, {}};
}

// The calls of FD in this TU all pass a host value for parameter I (with
// P open: a call passing P's own value adds nothing); Count counts them.
static bool callsHereOnHost(const FunctionDecl *FD, unsigned I, QualType T, int Depth,
                            host::Opened &Open, unsigned &Count) {
  CallIndex &Index = Current->index();
  const FunctionDecl *Key = FD->getCanonicalDecl();
  if (Index.AddressTaken.count(Key))
    return false;
  auto Calls = Index.Calls.find(Key);
  if (Calls == Index.Calls.end())
    return true;
  Count += Calls->second.size();
  return llvm::all_of(Calls->second, [&](const CallExpr *C) {
    return argOnHost(argumentFor(*C, I), T, Depth + 1, Open);
  });
}

// The other TUs' calls of FD all pass a host value for parameter I. With
// calls here (Count), the answer needs every fact to hold; without, also one.
static bool callsElsewhereOnHost(const FunctionDecl *FD, unsigned I, unsigned &Count) {
  std::string Usr = usrOf(FD);
  if (Usr.empty() || !Current->Program)
    return false;
  FactQuestion Q = Count > 0 ? FactQuestion::AllHold : FactQuestion::SomeAllHold;
  for (const auto &[Key, Facts] : Current->Program->factsUnder(paramKey(Usr, I), Q)) {
    if (llvm::StringRef(Key).ends_with("@" + Current->Self))
      continue;
    if (Facts->empty() || Facts->front().Op.What != FactHolds)
      return false;
    ++Count;
  }
  return true;
}

HostFactsScope::~HostFactsScope() {
  delete Current;
  Current = nullptr;
}

bool host::paramOnHost(const ParmVarDecl &P, int Depth, Opened &Open) {
  const auto *FD = dyn_cast<FunctionDecl>(P.getDeclContext());
  if (!Current || !FD || !followed(*FD) || Depth > MaxDepth ||
      (isTensorType(P.getType()) && !isUnchanged(P)))
    return false;
  if (Open.count(&P))
    return true;  // a call passing the parameter's own value
  if (auto It = Current->Params.find(&P); It != Current->Params.end())
    return It->second;
  Open.insert(&P);
  unsigned I = P.getFunctionScopeIndex(), Count = 0;
  bool Host = callsHereOnHost(FD, I, P.getType(), Depth, Open, Count) &&
              (!FD->isExternallyVisible() || callsElsewhereOnHost(FD, I, Count)) && Count > 0;
  Open.erase(&P);
  // A proof made while other values were assumed holds only with them.
  if (!Host || Open.empty())
    Current->Params[&P] = Host;
  return Host;
}

bool host::returnsHostElsewhere(const FunctionDecl &FD) {
  if (!Current || !followed(FD))
    return false;
  std::string Usr = usrOf(&FD);
  return !Usr.empty() && Current->programHas(returnsKey(Usr));
}

// Every return of FD, defined here, lives on the host.
static bool returnsHost(const FunctionDecl &FD) {
  std::vector<const ReturnStmt *> Returns;
  collectReturns(FD.getBody(), Returns);
  host::Opened Open;
  return !Returns.empty() && llvm::all_of(Returns, [&](const ReturnStmt *R) {
    return argOnHost(R->getRetValue(), FD.getReturnType(), 1, Open);
  });
}

static void addFact(FunctionTable &Out, const std::string &Key, const char *What) {
  ReachedEffect Fact;
  Fact.Op.Kind = EffectKind::TensorWork;
  Fact.Op.What = What;
  Out[Key] = {Fact};
}

void exportHostFacts(FunctionTable &Out) {
  if (!Current)
    return;
  CallIndex &Index = Current->index();
  std::set<const FunctionDecl *> Named(Index.AddressTaken);
  for (const auto &Entry : Index.Calls)
    Named.insert(Entry.first);
  for (const FunctionDecl *FD : Named) {
    std::string Usr = usrOf(FD);
    if (!FD->isExternallyVisible() || !followed(*FD) || Usr.empty())
      continue;
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      QualType T = FD->getParamDecl(I)->getType();
      host::Opened Open;
      unsigned Count = 0;
      if (tracked(T))
        addFact(Out, paramKey(Usr, I) + Current->Self,
                callsHereOnHost(FD, I, T, 0, Open, Count) ? FactHolds : FactFails);
    }
  }
  for (const FunctionDecl *Def : Index.Defined)
    if (Def->isExternallyVisible() && followed(*Def) && tracked(Def->getReturnType()) &&
        returnsHost(*Def))
      addFact(Out, returnsKey(usrOf(Def)), FactHolds);
}

} // namespace torchtidy
