#include "checks/host_sync_in_loop.h"

#include "analyses/LoopContext.h"
#include "analyses/LoopCheck.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo HostSyncInLoopCheck::Info = {
    "torch-host-sync-in-loop",
    "a device-to-host read (.item(), .cpu(), nonzero, <<) on every loop iteration stalls the GPU "
    "pipeline",
    Level::Warning,
    Precision::Medium,
    {"performance"},
    {{"IncludePeriodic", "false",
      "also flag reads guarded by a periodic condition on the loop counter (if (i % k == 0))"}},
    /*NeedsCuda=*/true,
    RuntimeSignal::HostSync};

void HostSyncInLoopCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"), this);
}

void HostSyncInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  LoopContext LC = loopContextOf(*Call, Ctx);
  if (!LC || LC.DispatchArm || (LC.PeriodicGuard && !Options.getBool("IncludePeriodic")))
    return;
  for (const ReachedEffect &R : effectsAtCall(*Call, Ctx)) {
    if (R.InLoop || R.Op.Kind != EffectKind::HostSync)
      continue;
    std::string Fix = "; accumulate on the device (total += loss.detach()) and read once after "
                      "the loop, or only every N iterations (if (i % N == 0))";
    std::string Msg =
        R.Chain.empty()
            ? R.Op.What + " " + R.Op.Detail + " and waits for the GPU on every iteration" + Fix
            : "call to '" + R.Chain.front().Callee + "' runs " + R.Op.What + ", which " +
                  R.Op.Detail + " and waits for the GPU, on every iteration" + Fix;
    if (inDeadCode(*Call, Ctx))
      return;
    DiagBuilder D = diag(*Result.SourceManager, reportLoc(R), Msg);
    addChainNotes(D, R, R.Op.What + " waits for the GPU here");
    addLoopNotes(D, LC);
    return;
  }
}

} // namespace torchtidy
