#include <torch/torch.h>
struct Net : torch::nn::Module {
  explicit Net(torch::Device d) : w(torch::ones({2}, torch::TensorOptions().device(d))) {}
  torch::Tensor w;
};
