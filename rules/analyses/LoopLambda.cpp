#include "analyses/LoopLambda.h"

#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace torchtidy {

// A callee whose body is in the user's code: the call summaries follow
// the lambdas handed to it there, and say whether it runs them.
static bool followedIntoCallee(const CallExpr &Call, ASTContext &Ctx) {
  const FunctionDecl *FD = Call.getDirectCallee();
  const FunctionDecl *Def = nullptr;
  return FD && FD->hasBody(Def) && Def &&
         !Ctx.getSourceManager().isInSystemHeader(Def->getLocation());
}

// std::vector<std::function<..>>::push_back and the like keep the lambda;
// the standard algorithms (free functions) run it.
static bool isStandardContainerMethod(const FunctionDecl *FD) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  return MD && MD->getParent()->isInStdNamespace();
}

// Where a lambda expression's value goes: its first parent past the
// conversions on the way, such as into a std::function parameter or variable.
static DynTypedNode lambdaDestination(const LambdaExpr &L, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(static_cast<const Stmt &>(L));
  for (int Depth = 0; Depth < 8; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return {};
    const Stmt *P = Parents[0].get<Stmt>();
    const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(P);
    bool Converts = Construct && !isa<CXXTemporaryObjectExpr>(Construct) && Construct->getNumArgs() == 1;
    if (!Converts && !isa_and_nonnull<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                                      ExprWithCleanups, ParenExpr>(P))
      return Parents[0];
    Node = Parents[0];
  }
  return {};
}

// A lambda handed to a call where it is written (a thread pool's job,
// std::for_each) runs on every pass through that call, unless the callee's
// body shows otherwise; one kept in a variable runs where it is called.
bool isHandedToCall(const LambdaExpr &L, ASTContext &Ctx) {
  const auto *Call = lambdaDestination(L, Ctx).get<CallExpr>();
  return Call && !followedIntoCallee(*Call, Ctx) && !isStandardContainerMethod(Call->getDirectCallee());
}

static bool isScalarParam(const ParmVarDecl *P) {
  QualType T = P->getType().getNonReferenceType();
  return T->isArithmeticType() || T->isEnumeralType();
}

// The first call in S that F makes itself (not a lambda inside it) in a
// loop and that Runs judges to run V: that loop's context, run through it.
static LoopContext firstRunInLoop(const Stmt *S, const FunctionDecl *F, ASTContext &Ctx,
                                  llvm::function_ref<bool(const CallExpr &)> Runs) {
  if (!S || isa<LambdaExpr>(S))
    return {};
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && Runs(*Call) && enclosingFunction(*Call, Ctx) == F)
    if (LoopContext LC = loopContextOf(*Call, Ctx)) {
      LC.Via = Call;
      return LC;
    }
  for (const Stmt *Child : S->children())
    if (LoopContext LC = firstRunInLoop(Child, F, Ctx, Runs))
      return LC;
  return {};
}

// V itself, under the conversions into a parameter (a std::function).
static bool namesVar(const Expr *E, const VarDecl *V) {
  E = E->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E); Construct && Construct->getNumArgs() == 1)
    E = Construct->getArg(0)->IgnoreImplicit();
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  return DRE && DRE->getDecl() == V;
}

// A call through V: V(start, stop).
static bool callsThrough(const CallExpr &Call, const VarDecl *V) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  const auto *DRE = Op && Op->getOperator() == OO_Call
                        ? dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts())
                        : nullptr;
  return DRE && DRE->getDecl() == V;
}

// A call that hands V to code whose body is not the user's
// (optimizer.step(closure), which runs it).
static bool handsOff(const CallExpr &Call, const VarDecl *V, ASTContext &Ctx) {
  return !followedIntoCallee(Call, Ctx) && !isStandardContainerMethod(Call.getDirectCallee()) &&
         llvm::any_of(Call.arguments(), [&](const Expr *A) { return namesVar(A, V); });
}

// A lambda that is its loop's own code: kept in a variable declared in the
// loop's body and called there, or handed there to code that runs it (an
// LBFGS closure), taking no more than numbers (a minibatch's bounds). One
// that takes tensors is a helper: its calls decide.
LoopContext loopLambdaContext(const LambdaExpr &L, ASTContext &Ctx) {
  const auto *V = lambdaDestination(L, Ctx).get<VarDecl>();
  if (!V || !V->isLocalVarDecl() || !llvm::all_of(L.getCallOperator()->parameters(), isScalarParam))
    return {};
  auto Parents = Ctx.getParents(*V);
  const auto *Decl = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  const auto *F = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!Decl || !F || !loopContextOf(*Decl, Ctx))
    return {};
  if (LoopContext LC = firstRunInLoop(F->getBody(), F, Ctx,
                                     [&](const CallExpr &C) { return callsThrough(C, V); }))
    return LC;
  LoopContext LC = firstRunInLoop(F->getBody(), F, Ctx,
                                  [&](const CallExpr &C) { return handsOff(C, V, Ctx); });
  LC.ViaHandOff = LC.Via != nullptr;
  return LC;
}

bool callsLoopLambda(const CallExpr &Call, ASTContext &Ctx) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  const auto *DRE = Op && Op->getOperator() == OO_Call
                        ? dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts())
                        : nullptr;
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const Expr *Init = V && V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr;
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init); Construct && Construct->getNumArgs() == 1)
    Init = Construct->getArg(0)->IgnoreImplicit();
  const auto *L = dyn_cast_or_null<LambdaExpr>(Init);
  return L && loopLambdaContext(*L, Ctx);
}

} // namespace torchtidy
