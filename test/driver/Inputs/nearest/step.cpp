#include <torch/torch.h>

double train_step(const torch::Tensor &x) {
  double total = 0;
  for (int i = 0; i < 10; ++i)
#ifdef SYNC_EACH_STEP
    total += x.sum().item<double>();
#else
    total += 1;
#endif
  return total;
}

// The program may run on a GPU (else the host-sync check has nothing to say).
torch::Device pick_device() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
