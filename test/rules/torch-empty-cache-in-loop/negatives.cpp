// RUN: %torchtidy --quiet --checks='-*,torch-empty-cache-in-loop' %s -- %torch_cuda_flags -I%S/Inputs \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include "memory_utils.h"

namespace alloc = c10::cuda::CUDACachingAllocator;

// A user function of the same name is not the allocator's.
namespace mycache { void emptyCache() {} }
struct Pool { void emptyCache() {} };

void train_epoch(std::vector<torch::Tensor> &xs) {
  for (auto &x : xs)
    x.mul_(2);
  alloc::emptyCache();  // once, after this function's loop
}

template <typename T> void sweep(std::vector<T> &xs) {
  for (auto &x : xs)
    x = T();
  header_release();  // after the loop
}

void run(std::vector<torch::Tensor> xs, Pool &p) {
  for (auto &x : xs)
    x.add_(1);
  c10::cuda::CUDACachingAllocator::emptyCache();  // a single call after the loop
  header_release();                               // through a header, after the loop
  for (auto &x : xs) {
    mycache::emptyCache();                        // not the allocator
    p.emptyCache();                               // a user class's method
  }
  auto later = [] { alloc::emptyCache(); };       // defined in no loop, called after
  later();
  for (int i = 0; i < 3; ++i) {
    auto defined_only = [] { alloc::emptyCache(); };  // defined in the loop, never called
  }
  sweep(xs);                                      // template: the call is after its loop
  train_epoch(xs);                                // its emptyCache runs after its loop
  alloc::getBaseAllocation(nullptr, nullptr);     // other allocator calls
  for (int i = 0; i < 3; ++i)
    alloc::getBaseAllocation(nullptr, nullptr);
}
// CHECK-MESSAGES-NOT: warning:
