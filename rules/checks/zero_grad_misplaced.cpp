#include "checks/zero_grad_misplaced.h"

#include "analyses/LoopContext.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo ZeroGradMisplacedCheck::Info = {
    "torch-zero-grad-misplaced",
    "zero_grad() between backward() and step(): the step applies zeroed gradients",
    Level::Warning,
    Precision::High,
    {"correctness"},
    {}};

void ZeroGradMisplacedCheck::registerMatchers(MatchFinder *Finder) {
  // Clearing between backward() and step() is wrong in a single pass too.
  Finder->addMatcher(userLoop(/*AlsoRunOnce=*/true), this);
}

static const ReachedEffect *find(const std::vector<ReachedEffect> &Effects, EffectKind K) {
  for (const ReachedEffect &E : Effects)
    if (E.Op.Kind == K && !E.InLoop)
      return &E;
  return nullptr;
}

// The optimizer a direct `opt.step()` / `opt.zero_grad()` is called on, if
// the call names one variable or field of an optimizer type.
static const ValueDecl *optimizerOf(const ReachedEffect &E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E.Op.Site);
  if (!E.Chain.empty() || !MC)
    return nullptr;
  const Expr *Obj = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
  if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Obj); Arrow && Arrow->getNumArgs() == 1)
    Obj = Arrow->getArg(0)->IgnoreParenImpCasts();
  if (!isOptimizerClass(MC->getMethodDecl()->getParent()))
    return nullptr;
  if (const auto *DR = dyn_cast<DeclRefExpr>(Obj))
    return DR->getDecl();
  if (const auto *ME = dyn_cast<MemberExpr>(Obj))
    return ME->getMemberDecl();
  return nullptr;
}

void ZeroGradMisplacedCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  const Stmt *Body = nullptr;
  for (const Stmt *Part : Loop->children())
    if (Part && isPerIterationPart(Loop, Part) && isa<CompoundStmt>(Part))
      Body = Part;
  if (!Body)
    return;
  // The body's statements in order; a statement that holds more than one of
  // backward, zero_grad and step keeps its order to itself and is skipped.
  std::vector<std::vector<ReachedEffect>> Effects;
  for (const Stmt *S : Body->children())
    Effects.push_back(summaries(*Result.Context).effectsOfStmt(S));
  const ReachedEffect *Backward = nullptr;
  for (size_t I = 0; I < Effects.size(); ++I) {
    const ReachedEffect *B = find(Effects[I], EffectKind::Backward);
    const ReachedEffect *Z = find(Effects[I], EffectKind::ZeroGrad);
    const ReachedEffect *S = find(Effects[I], EffectKind::Step);
    if (S) {
      Backward = nullptr;  // a later zero_grad clears for the next iteration
      continue;
    }
    if (B) {
      Backward = Z ? nullptr : B;
      continue;
    }
    if (!Z || !Backward)
      continue;
    const ReachedEffect *Step = nullptr;
    for (size_t J = I + 1; J < Effects.size() && !Step; ++J)
      Step = find(Effects[J], EffectKind::Step);
    if (!Step)
      continue;
    // Clearing another optimizer's gradients (a GAN's two models) is fine.
    const ValueDecl *ZOpt = optimizerOf(*Z), *SOpt = optimizerOf(*Step);
    if (ZOpt && SOpt && ZOpt != SOpt)
      continue;
    std::string What = Z->Chain.empty() ? Z->Op.What
                                        : "call to '" + Z->Chain.front().Callee +
                                              "', which runs " + Z->Op.What + ",";
    DiagBuilder D = diag(*Result.SourceManager, reportLoc(*Z),
                         What + " runs after backward() and before step(): the step applies "
                                "zeroed gradients; clear them before backward() or after step()");
    addChainNotes(D, *Z, "the gradients are cleared here");
    D.note(reportLoc(*Backward), "backward() computes the gradients here");
    D.note(reportLoc(*Step), "step() applies them here");
    Backward = nullptr;
  }
}

} // namespace torchtidy
