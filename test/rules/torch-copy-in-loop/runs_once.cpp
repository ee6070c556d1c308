// A loop whose body ends in a break, return or throw runs once (a test that
// looks at the first batch of a loader): a copy there is made once. With a
// continue that starts another pass it is a loop again; a break that ends
// an inner loop's body leaves the outer loop a loop.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

torch::Tensor first_batch(const std::vector<torch::Tensor> &batches) {
  for (const auto &b : batches) {
    auto x = b.to(device);
    return x * 2;
  }
  return {};
}

void inspect(const std::vector<torch::Tensor> &batches) {
  for (const auto &b : batches) {
    auto x = b.to(device);
    std::cout << x.sizes() << std::endl;
    break;
  }
  while (true) {
    auto x = torch::rand({2}).to(device);
    if (x.numel() == 0)
      continue;
    break;
  }
  // CHECK-MESSAGES: :[[@LINE-5]]:31: warning: '.to(device)' is a blocking copy from host to device
  for (const auto &b : batches) {
    for (int k = 0; k < 3; ++k) {
      auto y = b.to(device);
      break;
    }
    // CHECK-MESSAGES: :[[@LINE-3]]:18: warning: '.to(device)' is a blocking copy from host to device
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: in this loop
  }
}
