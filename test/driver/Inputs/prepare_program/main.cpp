#include "prepare.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::vector<torch::Tensor> weights = to_device({torch::ones({2})}, device);
  size_t n = 0;
  for (int step = 0; step < 10; ++step)
    n += collate({torch::ones({2})}, device).size();
  return static_cast<int>(n + weights.size());
}
