// RUN: not %torchtidy --quiet --checks='-*,torch-empty-cache-in-loop' %s -- %torch_cuda_flags -I%S/Inputs \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include "memory_utils.h"

namespace alloc = c10::cuda::CUDACachingAllocator;

void release() { c10::cuda::CUDACachingAllocator::emptyCache(); }
void release_deeper() { release(); }
template <typename T> void release_after(T &x) { x = T(); alloc::emptyCache(); }
#define RELEASE_GPU_MEMORY() c10::cuda::CUDACachingAllocator::emptyCache()
struct Trainer {
  void cleanup() { alloc::emptyCache(); }
};

void run(std::vector<torch::Tensor> xs, Trainer &t) {
  for (int i = 0; i < 10; ++i) {
    c10::cuda::CUDACachingAllocator::emptyCache();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'emptyCache()' returns the allocator's cached blocks to the driver on every iteration, so the next iteration allocates them again with cudaMalloc; it does not fix a leak: call it once after the loop, if at all [torch-empty-cache-in-loop]
  }
  for (auto &x : xs) {
    auto y = x * 2;
    alloc::emptyCache();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'emptyCache()' returns
  }
  int n = 0;
  while (n++ < 3) {
    release();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'release' runs 'emptyCache()', which returns
  }
  do {
    release_deeper();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'release_deeper' runs 'emptyCache()'
  } while (n-- > 0);
  auto free_lambda = [] { c10::cuda::CUDACachingAllocator::emptyCache(); };
  for (auto &x : xs) {
    free_lambda();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'free_lambda' runs 'emptyCache()'
  }
  for (auto &x : xs) {
    release_after(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'release_after' runs 'emptyCache()'
  }
  for (auto &x : xs) {
    RELEASE_GPU_MEMORY();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'emptyCache()' returns
  }
  for (auto &x : xs) {
    header_release();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'header_release' runs 'emptyCache()'
  }
  for (auto &x : xs) {
    t.cleanup();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: call to 'cleanup' runs 'emptyCache()'
  }
  for (int e = 0; e < 2; ++e)
    for (auto &x : xs) {
      alloc::emptyCache();  // reported once, at the inner loop
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'emptyCache()' returns
    }
  for (auto &x : xs)
    if (x.numel() > 1000)
      alloc::emptyCache();  // conditional: still on the loop's path
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'emptyCache()' returns
}
