#include "checks/Registry.h"

#include "checks/copy_in_loop.h"
#include "checks/create_then_move.h"
#include "checks/data_parallel.h"
#include "checks/empty_cache_in_loop.h"
#include "checks/eval_without_no_grad.h"
#include "checks/forward_factory_device.h"
#include "checks/hardcoded_device.h"
#include "checks/host_sync_in_loop.h"
#include "checks/loss_accumulation_graph.h"
#include "checks/missing_zero_grad.h"
#include "checks/non_blocking_pageable.h"
#include "checks/unsynchronized_timing.h"
#include "checks/zero_grad_misplaced.h"

#include <algorithm>

namespace torchtidy {

template <typename T>
static std::unique_ptr<Check> create(const CheckOptions::Map &Options, DiagSink &Sink) {
  return std::make_unique<T>(T::Info, Options, Sink);
}

template <typename T> static CheckFactory entry() { return {&T::Info, &create<T>}; }

llvm::ArrayRef<CheckFactory> allChecks() {
  static const std::vector<CheckFactory> Checks = [] {
    std::vector<CheckFactory> V = {
        // One line per check.
        entry<CopyInLoopCheck>(),
        entry<CreateThenMoveCheck>(),
        entry<DataParallelCheck>(),
        entry<EmptyCacheInLoopCheck>(),
        entry<EvalWithoutNoGradCheck>(),
        entry<ForwardFactoryDeviceCheck>(),
        entry<HardcodedDeviceCheck>(),
        entry<HostSyncInLoopCheck>(),
        entry<LossAccumulationGraphCheck>(),
        entry<MissingZeroGradCheck>(),
        entry<NonBlockingPageableCheck>(),
        entry<UnsynchronizedTimingCheck>(),
        entry<ZeroGradMisplacedCheck>(),
    };
    std::sort(V.begin(), V.end(),
              [](const CheckFactory &A, const CheckFactory &B) { return A.Info->Id < B.Info->Id; });
    return V;
  }();
  return Checks;
}

const CheckFactory *findCheck(llvm::StringRef Id) {
  for (const CheckFactory &F : allChecks())
    if (F.Info->Id == Id)
      return &F;
  return nullptr;
}

} // namespace torchtidy
