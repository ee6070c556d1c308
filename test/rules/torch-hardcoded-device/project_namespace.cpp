// A project that declares its own Trainer in namespace torch: its
// constructor is the code's, so a CUDA literal handed to its Device
// parameter fixes the device. The same under the clang-tidy plugin, where a
// hand-written -I makes LibTorch's headers user headers (they are still
// LibTorch's, told apart by their include tree).
// RUN: not %torchtidy --quiet --checks='-*,torch-hardcoded-device' %s -- %torch_flags -I%S/Inputs \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
// RUN: %clang_tidy --load=%clang_tidy_plugin --checks='-*,torch-hardcoded-device' %s -- \
// RUN:   %torch_include_flags -I%S/Inputs 2>/dev/null \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include "namespace_torch_trainer.hpp"

using Trainer = torch::Trainer<torch::Factory>;

void train() {
  Trainer trainer(torch::kCUDA, 10);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: {{.*}} [torch-hardcoded-device]
  trainer.to(torch::Device("cuda:1"));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: {{.*}} [torch-hardcoded-device]
}

void negatives(int epochs) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Trainer trainer(device, epochs);
  trainer.to(device);
  bool cuda = device.is_cuda();
  (void)cuda;
}
