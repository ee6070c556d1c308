// A copy under a periodic condition on the loop counter is no copy on every
// iteration; torch-copy-in-loop.IncludePeriodic turns on those written in
// the loop itself.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
// RUN: printf 'CheckOptions:\n  torch-copy-in-loop.IncludePeriodic: true\n' > %t/periodic.yaml
// RUN: not %torchtidy --quiet --config-file=%t/periodic.yaml --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefixes=CHECK-MESSAGES,PERIODIC -implicit-check-not='warning:'
#include <torch/torch.h>

torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

torch::Tensor preview(int64_t step) {
  if (step % 10 == 0)
    return torch::randn({1, 8}).to(device);
  return torch::Tensor();
}

void train(std::vector<torch::Tensor> &batches, int epochs) {
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    for (auto &b : batches) {
      auto x = b.to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '.to(device)' is a blocking copy from host to device
    }
    if (epoch % 5 == 0) {
      auto noise = torch::randn({1, 8}).to(device);
      // PERIODIC: :[[@LINE-1]]:41: warning: '.to(device)' is a blocking copy from host to device
    }
    auto sample = preview(epoch);  // periodic inside the helper
  }
}
