// Assertion and logging macros wrap their body in do { ... } while (0) (or
// while (false)) to run it once: no loop. Inside a real loop, the note names
// that loop, not the macro's do. doctest's real header, LibTorch's AT_ASSERT
// and TORCH_CHECK, and a project's own macro.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:' -implicit-check-not='note: in this loop'
#include <torch/torch.h>
#include <doctest/doctest.h>
#include <iostream>

#define LOG_VALUE(x) do { std::cout << #x << " = " << (x) << "\n"; } while (0)
#define LOG_ONCE(x) do { std::cout << (x) << "\n"; } while (false)
#define SUM_ITEMS(v, out) do { for (auto &t : v) out += t.item<float>(); } while (0)

TEST_CASE("the loss is positive") {
  torch::Tensor loss = torch::ones({1}).cuda();
  CHECK(loss.item<float>() > 0);
  REQUIRE(loss.equal(loss));
  AT_ASSERT(loss.item<float>() > 0);
  TORCH_CHECK(loss.item<float>() > 0, "the loss is negative");
  LOG_VALUE(loss.item<float>());
  LOG_ONCE(loss);
  do { std::cout << loss.item<float>(); } while (0);
  while (false) { std::cout << loss.item<float>(); }
}

void train(torch::Tensor loss, std::vector<torch::Tensor> outs) {
  for (int i = 0; i < 3; ++i) {
    CHECK(loss.item<float>() > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.item()' copies the value to the host
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop
    AT_ASSERT(loss.item<float>() > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.item()' copies the value to the host
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: in this loop
    TORCH_CHECK(loss.is_nonzero(), "the loss is zero");
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '.is_nonzero()' reads the data back to compute its answer
    // CHECK-MESSAGES: :[[@LINE-9]]:3: note: in this loop
    LOG_VALUE(loss.item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.item()' copies the value to the host
    // CHECK-MESSAGES: :[[@LINE-12]]:3: note: in this loop
    LOG_ONCE(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: streaming a tensor with '<<' copies it to the host
    // CHECK-MESSAGES: :[[@LINE-15]]:3: note: in this loop
  }
  float total = 0;
  SUM_ITEMS(outs, total);  // the macro's own loop
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: '.item()' copies the value to the host
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: in this loop
  int i = 0;
  do {
    CHECK(loss.item<float>() > 0);  // a real do loop
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.item()' copies the value to the host
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop
  } while (++i < 3);
  while (true) {
    LOG_VALUE(loss.item<float>());
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.item()' copies the value to the host
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop
    if (i++ > 5)
      break;
  }
}
