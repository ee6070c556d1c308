// A copy inside an assertion or logging macro's do { ... } while (0) runs
// once: no loop. Inside a real loop, the note names that loop. doctest's real
// header, LibTorch's AT_ASSERT and TORCH_CHECK, and a project's own macro.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:' -implicit-check-not='note: in this loop'
#include <torch/torch.h>
#include <doctest/doctest.h>
#include <iostream>

#define LOG_VALUE(x) do { std::cout << #x << " = " << (x).sizes() << "\n"; } while (0)
#define TO_DEVICE(x, d) do { x = x.to(d); } while (false)

TEST_CASE("the model runs on the device") {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Tensor batch = torch::ones({2, 4});
  CHECK(batch.to(device).defined());
  AT_ASSERT(batch.to(device).dim() == 2);
  TORCH_CHECK(batch.to(device).dim() == 2, "a batch is 2-d");
  LOG_VALUE(batch.to(device));
  TO_DEVICE(batch, device);
}

void train(torch::Device device, std::vector<torch::Tensor> batches) {
  for (auto &batch : batches) {
    CHECK(batch.to(device).defined());
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: '.to(device)' is a blocking copy from host to device, on every iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop
    AT_ASSERT(batch.cuda().dim() == 2);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.cuda()' is a blocking copy from host to device, on every iteration
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: in this loop
    LOG_VALUE(batch.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.to(device)' is a blocking copy from host to device, on every iteration
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: in this loop
    TO_DEVICE(batch, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: '.to(device)' is a blocking copy from host to device, on every iteration
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: in this loop
  }
  torch::Tensor w = torch::ones({4});
  int i = 0;
  do {
    TORCH_CHECK(w.to(device).dim() == 1, "w is 1-d");
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.to(device)' copies 'w', which is defined outside the loop and does not change in it, to the device on every iteration
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop
  } while (++i < 3);
}
