// Which functions a program with a main() runs none of (uncalledInProgram).
#include "analyses/PlaceFacts.h"
#include "analyses/PlaceFactsState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace torchtidy {

using namespace placefacts;

bool placefacts::definesMain(ASTContext &Ctx) {
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

// The call runs in no program: the function around it is uncalled.
bool placefacts::inUncalledFunction(const CallExpr &C) {
  const FunctionDecl *Holder = holderOf(C);
  return Holder && uncalledInProgram(*Holder);
}

static bool uncalledHere(const FunctionDecl &FD, const std::string &Usr) {
  CallIndex &Index = Current->index();
  const FunctionDecl *Key = FD.getCanonicalDecl();
  if (Index.AddressTaken.count(Key) || Current->unresolvedNames().count(FD.getName().str()))
    return false;
  ProgramSummaries &P = *Current->Program;
  if ((!definesMain(Current->Ctx) && P.factsUnder(MainKey, FactQuestion::Some).empty()) ||
      !P.factsUnder(unresolvedKey(FD.getName()), FactQuestion::Some).empty())
    return false;
  // Other files can call only what has external linkage.
  if (FD.isExternallyVisible())
    for (const auto &Fact : P.factsUnder(calledKey(Usr), FactQuestion::Some))
      if (!llvm::StringRef(Fact.first).ends_with("@" + Current->Self))
        return false;
  // Called here only from functions no program runs (itself included).
  auto Calls = Index.Calls.find(Key);
  return Calls == Index.Calls.end() || llvm::all_of(Calls->second, [&](const CallExpr *C) {
           const FunctionDecl *Holder = holderOf(*C);
           return Holder && (Holder->getCanonicalDecl() == Key || inUncalledFunction(*C));
         });
}

bool uncalledInProgram(const FunctionDecl &FD) {
  // A template's code runs through its instantiations: none when every one
  // made here is uncalled (another file's own would show there).
  if (const FunctionTemplateDecl *T = FD.getDescribedFunctionTemplate())
    return Current && !T->specializations().empty() &&
           llvm::all_of(T->specializations(),
                        [](const FunctionDecl *S) { return uncalledInProgram(*S); });
  if (!Current || !Current->Program || !followed(FD) || FD.isMain() || FD.isExternC() || isa<CXXDestructorDecl, CXXConversionDecl>(FD) ||
      connectedByMoc(FD) || !FD.getIdentifier())
    return false;
  std::string Usr = usrOf(&FD);
  const FunctionDecl *Key = FD.getCanonicalDecl();
  if (Usr.empty())
    return false;
  // Functions that call each other and nothing else: none keeps another
  // alive. An answer that took such an assumption is not kept.
  if (Current->UncalledOpen.count(Key)) {
    Current->UncalledAssumed = true;
    return true;
  }
  if (auto It = Current->Uncalled.find(Key); It != Current->Uncalled.end())
    return It->second;
  bool WasAssumed = Current->UncalledAssumed;
  Current->UncalledAssumed = false;
  Current->UncalledOpen.insert(Key);
  bool Uncalled = uncalledHere(FD, Usr);
  Current->UncalledOpen.erase(Key);
  if (!Uncalled || !Current->UncalledAssumed || Current->UncalledOpen.empty())
    Current->Uncalled[Key] = Uncalled;
  Current->UncalledAssumed |= WasAssumed;
  return Uncalled;
}

} // namespace torchtidy
