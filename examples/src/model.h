#pragma once
#include <torch/torch.h>

// A two-layer classifier whose bias and mask were written for one GPU.
struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl(int64_t in, int64_t hidden, int64_t classes);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::Tensor bias;
};
TORCH_MODULE(Classifier);
