#include "analyses/LoopContext.h"
#include "analyses/LoopLambda.h"

#include "analyses/TorchTypes.h"
#include "analyses/VarValues.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/DeclObjC.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/StmtCXX.h"

#include <optional>

using namespace clang;

namespace torchtidy {

static bool containsRemainder(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->getOpcode() == BO_Rem)
      return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    if (Op->getOperator() == OO_Percent)
      return true;
  for (const Stmt *C : S->children())
    if (containsRemainder(C))
      return true;
  return false;
}

bool isPeriodicCondition(const Expr *Cond) { return containsRemainder(Cond); }

// The variable E reads, through members and getters (cmd.name, cmd->kind(),
// cmd); null for anything else.
static const VarDecl *baseVariable(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MemberExpr>(E))
      E = M->getBase();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E); MC && MC->getNumArgs() == 0)
      E = MC->getImplicitObjectArgument();
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    else
      return nullptr;
  }
  return nullptr;
}

// The variable a condition compares for equality with a constant (a string,
// character or integer literal, an enumerator); null when it is no such test.
static const VarDecl *comparedWithConstant(const Expr *Cond) {
  const Expr *L = nullptr, *R = nullptr;
  Cond = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Cond); BO && BO->getOpcode() == BO_EQ)
    std::tie(L, R) = std::make_pair(BO->getLHS(), BO->getRHS());
  else if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Cond);
           Op && Op->getOperator() == OO_EqualEqual && Op->getNumArgs() == 2)
    std::tie(L, R) = std::make_pair(Op->getArg(0), Op->getArg(1));
  else
    return nullptr;
  auto IsConstant = [](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return isa<EnumConstantDecl>(DRE->getDecl());
    return isa<StringLiteral, CharacterLiteral, IntegerLiteral>(E);
  };
  if (IsConstant(L))
    std::swap(L, R);
  return IsConstant(R) ? baseVariable(L) : nullptr;
}

// The variable an arm of P dispatches on, Prev being that arm: P is a
// switch, or an if of an else-if chain whose conditions compare the same
// variable with constants.
static const VarDecl *dispatchedOn(const Stmt *P, const Stmt *Prev, ASTContext &Ctx) {
  if (const auto *Switch = dyn_cast<SwitchStmt>(P))
    return Prev == Switch->getBody() ? baseVariable(Switch->getCond()) : nullptr;
  const auto *If = dyn_cast<IfStmt>(P);
  if (!If || (Prev != If->getThen() && Prev != If->getElse()) || isa<IfStmt>(Prev))
    return nullptr;
  const VarDecl *V = comparedWithConstant(If->getCond());
  if (!V)
    return nullptr;
  const auto *Next = dyn_cast_or_null<IfStmt>(If->getElse());
  if (Next && comparedWithConstant(Next->getCond()) == V)
    return V;
  auto Parents = Ctx.getParents(*If);
  const auto *Up = Parents.empty() ? nullptr : Parents[0].get<IfStmt>();
  return Up && Up->getElse() == If && comparedWithConstant(Up->getCond()) == V ? V : nullptr;
}

bool isPerIterationPart(const Stmt *Loop, const Stmt *Child) {
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    return Child != F->getInit();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    return Child == R->getBody() || Child == R->getLoopVarStmt();
  return isa<WhileStmt, DoStmt>(Loop);
}

std::optional<bool> constantBool(const Expr *E, ASTContext &Ctx) {
  bool V = false;
  if (!E || E->isValueDependent() || !E->EvaluateAsBooleanCondition(V, Ctx))
    return std::nullopt;
  return V;
}

// A continue of this loop (not of a loop or lambda inside it) in S.
static bool continuesLoop(const Stmt *S) {
  if (!S || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(S))
    return false;
  return isa<ContinueStmt>(S) || llvm::any_of(S->children(), continuesLoop);
}

// The body's last statement leaves the loop (break, return, throw) and no
// continue starts another pass: it runs once, as a test that looks at the
// first batch of a loader does (for (auto &b : *loader) { ...; break; }).
static bool endsFirstPass(const Stmt *Body) {
  const auto *C = dyn_cast_or_null<CompoundStmt>(Body);
  const Stmt *Last = C && !C->body_empty() ? C->body_back() : Body;
  if (const auto *E = dyn_cast_or_null<Expr>(Last))
    Last = E->IgnoreImplicit();
  return isa_and_nonnull<BreakStmt, ReturnStmt, CXXThrowExpr>(Last) &&
         !llvm::any_of(Body->children(), continuesLoop);
}

bool isLoop(const Stmt *S, ASTContext &Ctx) {
  const Expr *Cond = nullptr;
  const Stmt *Body = nullptr;
  if (const auto *D = dyn_cast_or_null<DoStmt>(S))
    Cond = D->getCond(), Body = D->getBody();
  else if (const auto *W = dyn_cast_or_null<WhileStmt>(S))
    Cond = W->getCond(), Body = W->getBody();
  else if (const auto *F = dyn_cast_or_null<ForStmt>(S))
    Cond = F->getCond(), Body = F->getBody();
  else if (const auto *R = dyn_cast_or_null<CXXForRangeStmt>(S))
    Body = R->getBody();
  else
    return false;
  return !endsFirstPass(Body) && (!Cond || constantBool(Cond, Ctx) != false);
}

bool isDeadOperand(const Stmt *Parent, const Stmt *Child, ASTContext &Ctx) {
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent))
    return BO->isLogicalOp() && Child == BO->getRHS() &&
           constantBool(BO->getLHS(), Ctx) == (BO->getOpcode() == BO_LOr);
  const Expr *Cond = nullptr;
  const Stmt *Then = nullptr, *Else = nullptr;
  if (const auto *If = dyn_cast_or_null<IfStmt>(Parent))
    Cond = If->getCond(), Then = If->getThen(), Else = If->getElse();
  else if (const auto *CO = dyn_cast_or_null<ConditionalOperator>(Parent))
    Cond = CO->getCond(), Then = CO->getTrueExpr(), Else = CO->getFalseExpr();
  if (!Cond || (Child != Then && Child != Else))
    return false;
  return constantBool(Cond, Ctx) == (Child == Else);
}

// S is in a branch that never runs, below it in its function (statements
// only: a declaration on the way ends the search).
static bool inDeadBranch(const Stmt &S, ASTContext &Ctx) {
  const Stmt *Prev = &S;
  for (DynTypedNodeList Parents = Ctx.getParents(S); !Parents.empty();) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return false;
    if (isDeadOperand(P, Prev, Ctx))
      return true;
    Prev = P;
    Parents = Ctx.getParents(*P);
  }
  return false;
}

LoopContext loopContextOf(const Stmt &S, ASTContext &Ctx) {
  LoopContext LC;
  DynTypedNode Node = DynTypedNode::create(S);
  const Stmt *Prev = &S;
  std::pair<const Stmt *, const VarDecl *> Dispatch{nullptr, nullptr};
  for (int Depth = 0; Depth < 256; ++Depth) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return LoopContext();
    Node = Parents[0];
    if (const auto *MD = Node.get<CXXMethodDecl>(); MD && MD->getParent()->isLambda())
      continue;  // a lambda's call operator: on to the lambda expression
    if (Node.get<Decl>()) {
      // A declaration statement's variable: keep walking through it; a
      // function or a lambda's operator() ends the search.
      if (Node.get<FunctionDecl>() || Node.get<BlockDecl>() || Node.get<ObjCMethodDecl>())
        return LoopContext();
      continue;
    }
    const Stmt *P = Node.get<Stmt>();
    if (!P)
      continue;
    if (const auto *L = dyn_cast<LambdaExpr>(P); L && !isHandedToCall(*L, Ctx)) {
      LoopContext Outer = loopLambdaContext(*L, Ctx);
      if (!Outer.PeriodicGuard)
        Outer.PeriodicGuard = LC.PeriodicGuard;
      if (!Outer.DispatchArm)
        Outer.DispatchArm = LC.DispatchArm;
      return Outer;
    }
    if (isDeadOperand(P, Prev, Ctx))
      return LoopContext();
    if (const auto *If = dyn_cast<IfStmt>(P))
      if (Prev == If->getThen() && !LC.PeriodicGuard && isPeriodicCondition(If->getCond()))
        LC.PeriodicGuard = If;
    if (const VarDecl *V = dispatchedOn(P, Prev, Ctx))
      Dispatch = {P, V};
    if (isLoop(P, Ctx) && isPerIterationPart(P, Prev)) {
      if (inDeadBranch(*P, Ctx))
        return LoopContext();
      LC.Loop = P;
      // A value the iteration declares (the range-for's element, a local of
      // the body) differs from one iteration to the next.
      if (Dispatch.first && P->getSourceRange().fullyContains(Dispatch.second->getSourceRange()))
        LC.DispatchArm = Dispatch.first;
      return LC;
    }
    Prev = P;
  }
  return LoopContext();
}

SourceLocation loopLoc(const Stmt *Loop) { return Loop ? Loop->getBeginLoc() : SourceLocation(); }

static bool refersTo(const Expr *E, const VarDecl *V) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == V;
  return false;
}

static bool assignsTo(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp() && refersTo(BO->getLHS(), V))
      return true;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    if (Op->isAssignmentOp() && Op->getNumArgs() > 0 && refersTo(Op->getArg(0), V))
      return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->isIncrementDecrementOp() && refersTo(UO->getSubExpr(), V))
      return true;
  // Passed to a non-const reference: std::tie(a, v) = f(), a helper
  // filling it.
  if (const auto *Call = dyn_cast<CallExpr>(S);
      Call && callMayChangeArgument(*Call, [&](const Expr *A) { return refersTo(A, V); }))
    return true;
  // In-place tensor methods (x.copy_(..), x.add_(..)) and set_ change it.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
    if (const auto *MD = MC->getMethodDecl())
      if (MD->getName().ends_with("_") && refersTo(MC->getImplicitObjectArgument(), V))
        return true;
  for (const Stmt *C : S->children())
    if (assignsTo(C, V))
      return true;
  return false;
}

bool isLoopInvariant(const VarDecl *V, const Stmt *Loop, ASTContext &Ctx) {
  if (!V || !Loop || !V->hasLocalStorage() && !isa<ParmVarDecl>(V) && !V->hasGlobalStorage())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = Loop->getSourceRange();
  SourceLocation D = V->getLocation();
  if (!SM.isBeforeInTranslationUnit(D, R.getBegin()) &&
      !SM.isBeforeInTranslationUnit(R.getEnd(), D))
    return false;  // declared in the loop
  return !assignsTo(Loop, V);
}

namespace {
AST_MATCHER(Stmt, isRealLoop) { return isLoop(&Node, Finder->getASTContext()); }
} // namespace

clang::ast_matchers::StatementMatcher userLoop(bool AlsoRunOnce) {
  using namespace clang::ast_matchers;
  clang::ast_matchers::internal::Matcher<Stmt> Loops =
      AlsoRunOnce ? stmt(anyOf(forStmt(), cxxForRangeStmt(), whileStmt(), doStmt()))
                  : clang::ast_matchers::internal::Matcher<Stmt>(isRealLoop());
  return stmt(Loops, unless(isExpansionInSystemHeader())).bind("loop");
}

} // namespace torchtidy
