// Found by torch-hardcoded-device and torch-create-then-move at once.
#include <torch/torch.h>
struct Both : torch::nn::Module {
  torch::Tensor w = torch::ones({2}).cuda();
};
