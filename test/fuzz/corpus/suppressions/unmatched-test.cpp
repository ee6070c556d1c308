#include <torch/torch.h>

struct Net : torch::nn::Module {
  // NOLINTBEGIN(torch-hardcoded-device)
  torch::Tensor a = torch::ones({2}).cuda();
  /* NOLINTEND(torch-*) */
  // NOLINTBEGIN(torch-*)
  torch::Tensor b = torch::ones({2}).cuda();
};
