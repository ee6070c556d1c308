#include <torch/torch.h>
struct Net : torch::nn::Module {
  torch::Tensor w = torch::ones({2}).cuda();
};
