#include "checks/empty_cache_in_loop.h"

#include "analyses/LoopContext.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo EmptyCacheInLoopCheck::Info = {
    "torch-empty-cache-in-loop",
    "CUDACachingAllocator::emptyCache() on every loop iteration releases cached blocks only for "
    "the next iteration to allocate them again from the driver",
    Level::Warning,
    Precision::High,
    {"performance"},
    {}};

void EmptyCacheInLoopCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"), this);
}

void EmptyCacheInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  LoopContext LC = loopContextOf(*Call, Ctx);
  if (!LC)
    return;
  for (const ReachedEffect &R : effectsAtCall(*Call, Ctx)) {
    // A call inside a loop of the callee is reported at that loop.
    if (R.InLoop || R.Op.Kind != EffectKind::EmptyCache)
      continue;
    std::string Msg =
        (R.Chain.empty() ? std::string("'emptyCache()'")
                         : "call to '" + R.Chain.front().Callee + "' runs 'emptyCache()', which") +
        " returns the allocator's cached blocks to the driver on every iteration, so the next "
        "iteration allocates them again with cudaMalloc; it does not fix a leak: call it once "
        "after the loop, if at all";
    if (inDeadCode(*Call, Ctx))
      return;
    DiagBuilder D = diag(*Result.SourceManager, reportLoc(R), Msg);
    addChainNotes(D, R, "'emptyCache()' is called here");
    addLoopNotes(D, LC);
    return;
  }
}

} // namespace torchtidy
