#include <torch/torch.h>
// Two lines inserted above the old findings,
// which move down by three with the blank line.

struct Net : torch::nn::Module {
  torch::Tensor w = torch::ones({2}).cuda();
  torch::Tensor b = torch::ones({2}).cuda();
  torch::Tensor n = torch::zeros({2}).cuda();
};
struct Net2 : torch::nn::Module {
  torch::Tensor w = torch::ones({2}).cuda();
};
