#include "checks/loss_accumulation_graph.h"

#include "analyses/GradMode.h"
#include "analyses/LoopCheck.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo LossAccumulationGraphCheck::Info = {
    "torch-loss-accumulation-graph",
    "a tensor outside the loop sums a value that requires grad: every iteration's graph stays "
    "alive; accumulate .detach() or .item()",
    Level::Warning,
    Precision::High,
    {"memory", "performance"},
    {}};

void LossAccumulationGraphCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"), this);
}

static const VarDecl *varOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(ignoreTensorWrappers(E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

namespace {
// total += v, total -= v, total.add_(v), total = total + v, total = torch::add(total, v).
struct Accumulation {
  const VarDecl *Total;
  const Expr *Value;
};
} // namespace

static bool isSum(const CallExpr &C) {
  if (C.getNumArgs() < 2)
    return false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&C))
    return Op->getOperator() == OO_Plus || Op->getOperator() == OO_Minus;
  const FunctionDecl *FD = C.getDirectCallee();
  return FD && FD->getIdentifier() && isTorchDecl(FD) && !isa<CXXMethodDecl>(FD) &&
         (FD->getName() == "add" || FD->getName() == "sub");
}

static std::optional<Accumulation> accumulationOf(const CallExpr &Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call)) {
    const VarDecl *Total = Op->getNumArgs() == 2 ? varOf(Op->getArg(0)) : nullptr;
    if (!Total)
      return std::nullopt;
    if (Op->getOperator() == OO_PlusEqual || Op->getOperator() == OO_MinusEqual)
      return Accumulation{Total, Op->getArg(1)};
    const auto *Sum = dyn_cast<CallExpr>(ignoreTensorWrappers(Op->getArg(1)));
    if (Op->getOperator() != OO_Equal || !Sum || !isSum(*Sum))
      return std::nullopt;
    if (varOf(Sum->getArg(0)) == Total)
      return Accumulation{Total, Sum->getArg(1)};
    if (varOf(Sum->getArg(1)) == Total)
      return Accumulation{Total, Sum->getArg(0)};
    return std::nullopt;
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
  if (!MC || MC->getNumArgs() < 1 ||
      !(isTensorMethod(MC->getMethodDecl(), "add_") || isTensorMethod(MC->getMethodDecl(), "sub_")))
    return std::nullopt;
  if (const VarDecl *Total = varOf(MC->getImplicitObjectArgument()))
    return Accumulation{Total, MC->getArg(0)};
  return std::nullopt;
}

// Calls every node of S (lambdas included) until F returns true.
template <typename Fn> static bool anyNode(const Stmt *S, Fn F) {
  if (!S)
    return false;
  if (F(S))
    return true;
  for (const Stmt *C : S->children())
    if (anyNode(C, F))
      return true;
  return false;
}

static bool mentions(const Stmt *S, const llvm::SmallPtrSetImpl<const VarDecl *> &Vars) {
  return anyNode(S, [&](const Stmt *N) {
    const auto *DRE = dyn_cast<DeclRefExpr>(N);
    return DRE && Vars.contains(dyn_cast<VarDecl>(DRE->getDecl()));
  });
}

static bool isTensorMethodCall(const Stmt *S, llvm::StringRef Name) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
  return MC && isTensorMethod(MC->getMethodDecl(), Name);
}

// A call that starts or extends a graph: a module's forward, or a LibTorch
// loss (torch::nll_loss, torch::nn::functional::cross_entropy, ...).
static bool buildsGraph(const Stmt *S) {
  return anyNode(S, [](const Stmt *N) {
    const auto *C = dyn_cast<CallExpr>(N);
    if (!C)
      return false;
    if (isModuleForwardCall(*C))
      return true;
    const FunctionDecl *FD = C->getDirectCallee();
    return FD && FD->getIdentifier() && isTorchDecl(FD) &&
           (FD->getName().contains("loss") || FD->getName().contains("cross_entropy"));
  });
}

// A backward pass from something that mentions one of Vars, within S.
static bool backwardFrom(const Stmt *S, const llvm::SmallPtrSetImpl<const VarDecl *> &Vars) {
  return anyNode(S, [&](const Stmt *N) {
    if (isTensorMethodCall(N, "backward"))
      return mentions(cast<CXXMemberCallExpr>(N)->getImplicitObjectArgument(), Vars);
    const auto *C = dyn_cast<CallExpr>(N);
    const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
    if (!FD)
      return false;
    std::string Q = FD->getQualifiedNameAsString();
    return (Q == "torch::autograd::backward" || Q == "torch::autograd::grad") && mentions(C, Vars);
  });
}

// Proof that the value is part of a graph: it is made by a forward or a
// loss, directly or through the locals it is computed from, or backward()
// is run from it in the loop.
static bool requiresGrad(const Expr *Value, const Stmt *Loop, int Depth = 0) {
  if (buildsGraph(Value))
    return true;
  if (Depth == 3)
    return false;
  return anyNode(Value, [&](const Stmt *N) {
    const auto *DRE = dyn_cast<DeclRefExpr>(N);
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || !V->isLocalVarDecl() || !isTensorType(V->getType()))
      return false;
    llvm::SmallPtrSet<const VarDecl *, 1> One{V};
    return backwardFrom(Loop, One) || (V->getInit() && requiresGrad(V->getInit(), Loop, Depth + 1));
  });
}

// The sum feeds a backward pass or is returned as a tensor: keeping its graph is
// the point (a loss summed over chunks, then one backward()).
static bool sumIsDifferentiated(const VarDecl *Total, const Stmt *Body) {
  llvm::SmallPtrSet<const VarDecl *, 4> Flow{Total};
  // Locals initialised or assigned from the sum carry it on; two rounds
  // follow a chain of two.
  for (int Round = 0; Round < 2; ++Round)
    anyNode(Body, [&](const Stmt *N) {
      if (const auto *DS = dyn_cast<DeclStmt>(N))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D);
              V && V->getInit() && isTensorType(V->getType()) && mentions(V->getInit(), Flow))
            Flow.insert(V);
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(N))
        if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 && mentions(Op->getArg(1), Flow))
          if (const VarDecl *V = varOf(Op->getArg(0)))
            Flow.insert(V);
      return false;
    });
  return backwardFrom(Body, Flow) || anyNode(Body, [&](const Stmt *N) {
           const auto *R = dyn_cast<ReturnStmt>(N);
           return R && R->getRetValue() && isTensorType(R->getRetValue()->getType()) &&
                  mentions(R, Flow);
         });
}

static bool isDetached(const Expr *Value) {
  return anyNode(Value, [](const Stmt *N) {
    return isTensorMethodCall(N, "detach") || isTensorMethodCall(N, "data");
  });
}

void LossAccumulationGraphCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  std::optional<Accumulation> A = accumulationOf(*Call);
  if (!A || !A->Total->isLocalVarDecl() || !isTensorType(A->Total->getType()) ||
      !isTensorType(A->Value->getType()) || isDetached(A->Value))
    return;
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  LoopContext LC = loopContextOf(*Call, Ctx);
  if (!LC || SM.isPointWithin(SM.getExpansionLoc(A->Total->getLocation()),
                              SM.getExpansionLoc(LC.Loop->getBeginLoc()),
                              SM.getExpansionLoc(LC.Loop->getEndLoc())))
    return;
  const FunctionDecl *F = enclosingFunction(*Call, Ctx);
  if (!F || !F->hasBody() || isUnderNoGrad(*Call, Ctx) || !requiresGrad(A->Value, LC.Loop) ||
      sumIsDifferentiated(A->Total, F->getBody()))
    return;
  const Expr *Value = A->Value->IgnoreImplicit();
  StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(Value->getSourceRange()), SM,
                                        Ctx.getLangOpts());
  std::string Shown = Text.empty() || Text.size() > 40 ? "the value" : "'" + Text.str() + "'";
  std::string Name = A->Total->getNameAsString();
  DiagBuilder D = diag(SM, Call->getBeginLoc(),
                       "'" + Name + "' accumulates " + Shown +
                           ", which is part of the autograd graph, on every iteration: the sum "
                           "keeps every iteration's graph alive and memory grows; accumulate " +
                           (Shown == "the value" ? std::string("it") : Shown) +
                           " with '.detach()', or its value with '.item<float>()'");
  addLoopNotes(D, LC);
  D.note(A->Total->getLocation(), "'" + Name + "' is declared outside the loop here");
  // Appending .detach() is right only after a postfix expression.
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Value);
  bool Postfix = isa<DeclRefExpr, MemberExpr, ParenExpr>(Value) ||
                 (Op ? Op->getOperator() == OO_Call || Op->getOperator() == OO_Subscript
                     : isa<CallExpr>(Value));
  if (Postfix && !Value->getBeginLoc().isMacroID() && !Value->getEndLoc().isMacroID())
    D.fix(CharSourceRange::getCharRange(
              Lexer::getLocForEndOfToken(Value->getEndLoc(), 0, SM, Ctx.getLangOpts()),
              Lexer::getLocForEndOfToken(Value->getEndLoc(), 0, SM, Ctx.getLangOpts())),
          ".detach()");
}

} // namespace torchtidy
