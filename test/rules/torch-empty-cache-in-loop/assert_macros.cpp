// A project's macro that wraps the call in do { ... } while (0) runs it once:
// no loop. Inside a real loop, the note names that loop.
// RUN: not %torchtidy --quiet --checks='-*,torch-empty-cache-in-loop' %s -- %torch_cuda_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:' -implicit-check-not='note: in this loop'
#include <torch/torch.h>
#include <c10/cuda/CUDACachingAllocator.h>

#define FREE_GPU_CACHE() do { c10::cuda::CUDACachingAllocator::emptyCache(); } while (0)

void once() { FREE_GPU_CACHE(); }

void each(int n) {
  for (int i = 0; i < n; ++i) {
    FREE_GPU_CACHE();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'emptyCache()' returns the allocator's cached blocks to the driver on every iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop
  }
}
