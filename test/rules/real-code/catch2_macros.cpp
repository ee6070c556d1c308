// Catch2's real header: CHECK / REQUIRE wrap their body in do { ... } while
// (false && expr), which runs once, and repeat the expression in the dead
// right operand. No loop-aware check sees a loop there; inside a real loop,
// each finding is made once and its note names the real loop.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop,torch-copy-in-loop,torch-missing-zero-grad,torch-eval-without-no-grad,torch-zero-grad-misplaced' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:' -implicit-check-not='note: in this loop'
#include <torch/torch.h>
#include <catch2/catch.hpp>

#define TRAIN_STEP(loss, opt) do { (loss).backward(); (opt).step(); } while (0)

TEST_CASE("one training step lowers the loss") {
  torch::nn::Linear net(4, 1);
  torch::optim::SGD opt(net->parameters(), 0.1);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto x = torch::ones({2, 4});
  auto loss = net->forward(x.to(device)).sum();
  REQUIRE(loss.item<float>() > 0);
  CHECK(x.to(device).defined());
  TRAIN_STEP(loss, opt);
  net->eval();
  CHECK(net->forward(x).sum().item<float>() > 0);
}

void train(torch::nn::Linear net, torch::optim::SGD &opt, torch::Tensor x, torch::Device device) {
  for (int epoch = 0; epoch < 3; ++epoch) {
    auto loss = net->forward(x).sum();
    CHECK(loss.item<float>() > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.item()' copies the value to the host and waits for the GPU on every iteration
    // CHECK-MESSAGES: :[[@LINE-4]]:3: note: in this loop
    REQUIRE(x.to(device).defined());
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: '.to(device)' copies 'x', which is defined outside the loop and does not change in it, to the device on every iteration
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: in this loop
    TRAIN_STEP(loss, opt);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'step()' applies gradients that no code in this loop clears
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: gradients are accumulated by backward() here
    // CHECK-MESSAGES: :[[@LINE-11]]:3: note: in this loop
  }
}

float evaluate(torch::nn::Linear net, std::vector<torch::Tensor> batches) {
  net->eval();
  float sum = 0;
  for (auto &x : batches) {
    auto out = net->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: forward after 'eval()' runs with autograd recording
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop, which calls no backward() or step()
    CHECK(out.sum().item<float>() > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.item()' copies the value to the host
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: in this loop
  }
  return sum;
}
