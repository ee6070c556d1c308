#include "checks/copy_in_loop.h"

#include "analyses/LoopContext.h"
#include "analyses/LoopCheck.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo CopyInLoopCheck::Info = {
    "torch-copy-in-loop",
    "a host-to-device copy on every loop iteration that blocks the host",
    Level::Warning,
    Precision::Medium,
    {"performance"},
    {{"IncludePeriodic", "false",
      "also flag copies guarded by a periodic condition on the loop counter (if (i % k == 0))"}},
    /*NeedsCuda=*/true,
    RuntimeSignal::Transfer};

void CopyInLoopCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"), this);
}

// The variable x.to(..) or x.cuda() copies (a write into a tensor names its
// destination, not what it copies).
static const VarDecl *copiedVar(const Expr *Site) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Site);
  if (!MC || !(isTensorMethod(MC->getMethodDecl(), "to") || isTensorMethod(MC->getMethodDecl(), "cuda")))
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

void CopyInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  LoopContext LC = loopContextOf(*Call, Ctx);
  if (!LC || (LC.PeriodicGuard && !Options.getBool("IncludePeriodic")))
    return;
  for (const ReachedEffect &R : summaries(Ctx).effectsOfCall(*Call)) {
    if (R.InLoop || (R.Op.Kind != EffectKind::Copy && R.Op.Kind != EffectKind::ModuleCopy))
      continue;
    std::string Msg;
    if (R.Op.Kind == EffectKind::ModuleCopy) {
      Msg = (R.Chain.empty() ? std::string("'->to()' on a module")
                             : "call to '" + R.Chain.front().Callee + "' moves a module, which") +
            " copies every parameter and buffer to the device on every iteration; move the "
            "module once before the loop";
    } else {
      const VarDecl *V = R.Chain.empty() ? copiedVar(R.Op.Site) : nullptr;
      if (V && isLoopInvariant(V, LC.Loop, Ctx))
        Msg = R.Op.What + " copies '" + V->getNameAsString() +
              "', which is defined outside the loop and does not change in it, to the device "
              "on every iteration; move it once before the loop";
      else
        Msg = (R.Chain.empty() ? R.Op.What
                               : "call to '" + R.Chain.front().Callee + "' runs " + R.Op.What +
                                     ", which") +
              " " + R.Op.Detail +
              ", on every iteration; on a CUDA device pin the batch (pin_memory() throws on a "
              "CPU-only LibTorch: if (device.is_cuda()) batch = batch.pin_memory();) and pass "
              "non_blocking=true, or move data that does not change once before the loop";
    }
    DiagBuilder D = diag(*Result.SourceManager, reportLoc(R), Msg);
    addChainNotes(D, R, "the copy " + R.Op.What + " is made here");
    D.note(loopLoc(LC.Loop), "in this loop");
    return;
  }
}

} // namespace torchtidy
