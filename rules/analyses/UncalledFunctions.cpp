// Which functions a program with a main() runs none of (uncalledInProgram).
#include "analyses/PlaceFacts.h"
#include "analyses/PlaceFactsState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace torchtidy {

using namespace placefacts;

bool definesMain(ASTContext &Ctx) {
  return llvm::any_of(Ctx.getTraversalScope(), [](const Decl *D) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    return FD && FD->isMain() && FD->doesThisDeclarationHaveABody();
  });
}

// Qt's moc calls the slots of a Q_OBJECT class from code it generates.
static bool connectedByMoc(const FunctionDecl &FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  return MD && llvm::any_of(MD->getParent()->methods(), [](const CXXMethodDecl *M) {
           return M->getIdentifier() && M->getName() == "qt_metacall";
         });
}

// The function whose body holds S, a lambda's body being part of the body
// around the lambda; null outside any (a variable's initialiser).
static const FunctionDecl *holderOf(const Stmt &S) {
  DynTypedNodeList Parents = Current->Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *FD = P.get<FunctionDecl>()) {
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (!MD || !MD->getParent()->isLambda())
        return FD;
    }
    Parents = Current->Ctx.getParents(P);
  }
  return nullptr;
}

static bool uncalled(const FunctionDecl &FD, bool Local);

// The names a call of FD may be left unresolved by: a call operator's are
// a call of an object of its class, or of one whose class is lost; none
// for other operators and conversions.
static std::vector<std::string> callNames(const FunctionDecl &FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD); MD && MD->getOverloadedOperator() == OO_Call)
    return {callOperatorName(""), callOperatorName(MD->getParent()->getName())};
  if (FD.getIdentifier())
    return {FD.getName().str()};
  return {};
}

// Local: decided from this TU alone, for a function defined in a header,
// whose body every file that calls it parses (and exports its calls from).
static bool uncalledHere(const FunctionDecl &FD, bool Local) {
  CallIndex &Index = Current->index();
  const FunctionDecl *Key = FD.getCanonicalDecl();
  std::vector<std::string> Names = callNames(FD);
  if (Index.AddressTaken.count(Key) ||
      llvm::any_of(Names, [](const std::string &N) { return Current->unresolvedNames().count(N); }))
    return false;
  const SourceManager &SM = Current->Ctx.getSourceManager();
  if (Local && SM.isInMainFile(SM.getExpansionLoc(FD.getLocation())))
    return false;
  // Called here only from functions no program runs (itself included);
  // decided before other files are asked, whose answers may change.
  auto Calls = Index.Calls.find(Key);
  if (Calls != Index.Calls.end() && !llvm::all_of(Calls->second, [&](const CallExpr *C) {
        const FunctionDecl *Holder = holderOf(*C);
        return Holder && (Holder->getCanonicalDecl() == Key || uncalled(*Holder, Local));
      }))
    return false;
  if (Local)
    return true;
  ProgramSummaries &P = *Current->Program;
  // Other files can call only what has external linkage.
  return (definesMain(Current->Ctx) || !P.factsUnder(MainKey, FactQuestion::Some).empty()) &&
         llvm::all_of(Names,
                      [&](const std::string &N) { return P.factsUnder(unresolvedKey(N), FactQuestion::Some).empty(); }) &&
         (!FD.isExternallyVisible() ||
          P.factsUnder(calledKey(usrOf(&FD)), FactQuestion::Some, "@" + Current->Self).empty());
}

// What may run without a call the code shows.
static bool runsUnseen(const FunctionDecl &FD) {
  return !followed(FD) || FD.isMain() || FD.isExternC() ||
         isa<CXXDestructorDecl, CXXConversionDecl>(FD) || connectedByMoc(FD) || callNames(FD).empty() ||
         usrOf(&FD).empty();
}

static bool uncalled(const FunctionDecl &FD, bool Local) {
  // A template's code runs through its instantiations: none when every one
  // made here is uncalled (another file's own would show there).
  if (const FunctionTemplateDecl *T = FD.getDescribedFunctionTemplate())
    return !T->specializations().empty() &&
           llvm::all_of(T->specializations(),
                        [&](const FunctionDecl *S) { return uncalled(*S, Local); });
  if ((!Local && !Current->Program) || runsUnseen(FD))
    return false;
  // Functions that call each other and nothing else: none keeps another
  // alive. An answer that took such an assumption is not kept.
  std::pair<const FunctionDecl *, bool> Key{FD.getCanonicalDecl(), Local};
  if (Current->UncalledOpen.count(Key)) {
    Current->UncalledAssumed = true;
    return true;
  }
  if (auto It = Current->Uncalled.find(Key); It != Current->Uncalled.end())
    return It->second;
  bool WasAssumed = Current->UncalledAssumed;
  Current->UncalledAssumed = false;
  Current->UncalledOpen.insert(Key);
  bool Uncalled = uncalledHere(FD, Local);
  Current->UncalledOpen.erase(Key);
  if (!Uncalled || !Current->UncalledAssumed || Current->UncalledOpen.empty())
    Current->Uncalled[Key] = Uncalled;
  Current->UncalledAssumed |= WasAssumed;
  return Uncalled;
}

bool uncalledInProgram(const FunctionDecl &FD) { return Current && uncalled(FD, false); }

bool placefacts::inUncalledHeaderFunction(const CallExpr &C) {
  const FunctionDecl *Holder = holderOf(C);
  return Holder && uncalled(*Holder, true);
}

} // namespace torchtidy
