#include "Registry.h"

#include "copy_in_loop.h"
#include "create_then_move.h"
#include "data_parallel.h"
#include "empty_cache_in_loop.h"
#include "eval_without_no_grad.h"
#include "forward_factory_device.h"
#include "hardcoded_device.h"
#include "host_sync_in_loop.h"
#include "loss_accumulation_graph.h"
#include "missing_zero_grad.h"
#include "non_blocking_pageable.h"
#include "unsynchronized_timing.h"
#include "zero_grad_misplaced.h"

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
