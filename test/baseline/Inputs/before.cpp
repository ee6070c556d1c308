#include <torch/torch.h>
struct Net : torch::nn::Module {
  torch::Tensor w = torch::ones({2}).cuda();
  torch::Tensor b = torch::ones({2}).cuda();
};
