#include <torch/torch.h>
#include <torch/tidy_probe.h>

double sum_all(const torch::Tensor &t) {
  double s = 0;
  for (int i = 0; i < 10; ++i) {
#if TIDY_PROBE_SYNC
    s += t.sum().item<double>();
#endif
  }
  return s;
}

// The program may run on a GPU (else the host-sync check has nothing to say).
torch::Device pick_device() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
