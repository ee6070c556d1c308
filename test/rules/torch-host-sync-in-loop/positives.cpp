// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags -I%S/Inputs \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>
#include "metrics.h"

float accuracy(const torch::Tensor &t) { return t.item<float>(); }
float deeper(const torch::Tensor &t) { return accuracy(t) * 2; }
template <typename T> float tmpl_read(const T &t) { return t.template item<float>(); }
float epoch_loss(std::vector<torch::Tensor> &xs) {
  float sum = 0;
  for (auto &x : xs)
    sum += x.item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '.item()' copies
  return sum;
}
#define LOSS_VALUE(x) (x).item<float>()

struct Base { virtual float read(const torch::Tensor &t) { return t.item<float>(); } virtual ~Base() = default; };

void run(torch::Tensor loss, std::vector<torch::Tensor> batches, Base &b) {
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    total += loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.item()' copies the value to the host and waits for the GPU on every iteration; accumulate on the device (total += loss.detach()) and read once after the loop, or only every N iterations (if (i % N == 0)) [torch-host-sync-in-loop]
    auto c = loss.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.cpu()' copies the tensor to the host
    total += c.item<float>();  // already on the CPU: only the first transfer waits
    auto h = loss.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.to(torch::kCPU)' copies the tensor to the host
    std::cout << loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: streaming a tensor with '<<' copies it to the host
    total += accuracy(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'accuracy' runs '.item()', which copies the value to the host and waits for the GPU, on every iteration
    total += deeper(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'deeper' runs '.item()'
    total += header_accuracy(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'header_accuracy' runs '.item()'
    total += tmpl_read(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'tmpl_read' runs '.item()'
    total += LOSS_VALUE(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '.item()' copies the value to the host
    auto nz = torch::nonzero(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'torch::nonzero' reads the data back to size its result
    auto ms = loss.masked_select(loss > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.masked_select()' reads the data back
    if (loss.equal(loss)) {}
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '.equal()' reads the data back to compute its answer
    total += b.read(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: call to 'read' runs '.item()'
    // CHECK-MESSAGES: :[[@LINE-2]]:16: note: virtual call: the summary of the static callee 'read' is used
  }
  auto log = [&](const torch::Tensor &t) { return t.item<float>(); };
  bool done = false;
  while (!done) {
    total += log(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'log' runs '.item()'
    done = total > 3;
  }
  for (auto &x : batches) {
    for (int j = 0; j < 3; ++j) {
      total += x.item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '.item()' copies
      // CHECK-MESSAGES: :[[@LINE-3]]:5: note: in this loop
    }
  }
  for (int e = 0; e < 2; ++e)
    total += epoch_loss(batches);  // reported at the helper's own loop, not again here
  int k = 0;
  do { total += loss.item<float>(); } while (++k < 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '.item()' copies
}

// The program may run on a GPU; without this it would be CPU-only, and
// nothing in it would wait for one (cpu_only.cpp).
torch::Device pick_device() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
