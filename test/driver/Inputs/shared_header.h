#pragma once
#include <torch/torch.h>
struct HeaderNet : torch::nn::Module {
  torch::Tensor w = torch::ones({2}).cuda();
};
