// Where a variable lives is decided by the value that reaches the copy:
// moved to the device before the loop, it copies nothing there; moved
// back to the host, or changed in a branch or in the loop, it is reported.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

void settled(std::vector<torch::Tensor> xs, torch::Device device, bool half) {
  auto mask = torch::ones({8});
  mask = mask.to(device);
  auto table = torch::arange(8).to(device);
  table = table.cpu();
  auto scale = torch::ones({8}).to(device);
  if (half)
    scale = torch::full({8}, 0.5);
  for (size_t i = 0; i < xs.size(); ++i) {
    auto m = mask.to(device);
    auto t = table.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.to(device)' copies 'table', which is defined outside the loop
    auto s = scale.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.to(device)' copies 'scale', which is defined outside the loop
  }
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  settled({torch::ones({8})}, device, true);
}
