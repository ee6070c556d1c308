#include <torch/torch.h>

torch::Tensor make(torch::Device device) {
  return torch::ones({2}).to(device);
}

float loop(torch::Tensor t) {
  float total = 0;
  for (int i = 0; i < 10; ++i)
    total += t.sum().item<float>();
  return total;
}

// The program may run on a GPU (else the sync check has nothing to say).
torch::Device pick_device() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
