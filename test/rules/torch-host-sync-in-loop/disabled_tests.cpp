// With DOCTEST_CONFIG_DISABLE (a library built with its tests left out),
// doctest turns each TEST_CASE into a static function template that nothing
// instantiates: no program runs it, nor a static helper only it calls. The
// same code compiled with the tests is checked, and so is a helper that
// live code calls too.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   -DDOCTEST_CONFIG_DISABLE | FileCheck %s -check-prefix=DISABLED -implicit-check-not='warning:'
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=ENABLED -implicit-check-not='warning:'
#include <torch/torch.h>
#include <doctest/doctest.h>
#include <iostream>

torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

static float score(const torch::Tensor &x) {
  float total = 0;
  for (int i = 0; i < 3; ++i)
    total += x.sum().item<float>();
  // ENABLED: :[[@LINE-1]]:22: warning: '.item()' copies the value to the host
  return total;
}

static float shared(const torch::Tensor &x) {
  float total = 0;
  for (int i = 0; i < 3; ++i)
    total += x.max().item<float>();
  // ENABLED: :[[@LINE-1]]:22: warning: '.item()' copies the value to the host
  // DISABLED: :[[@LINE-2]]:22: warning: '.item()' copies the value to the host
  return total;
}

float train(const torch::Tensor &x) { return shared(x.to(device)); }

// Named nowhere, in a file without errors: dead in every program.
static float unused(const torch::Tensor &x) {
  float total = 0;
  for (int i = 0; i < 3; ++i)
    total += x.min().item<float>();
  return total;
}

TEST_CASE("score reads back") {
  auto x = torch::ones({2}).to(device);
  float s = score(x);
  CHECK(s > 0);
  CHECK(shared(x) > 0);
  for (int i = 0; i < 2; ++i)
    CHECK(x.min().item<float>() > 0);
  // ENABLED: :[[@LINE-1]]:19: warning: '.item()' copies the value to the host
}
