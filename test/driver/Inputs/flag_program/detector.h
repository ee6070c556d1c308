#pragma once
#include <torch/torch.h>

struct Detector {
  torch::Device device;
  torch::nn::Linear net{4, 4};
  explicit Detector(torch::Device d) : device(d) { net->to(d); }
  torch::Tensor predict(const torch::Tensor &image, bool show, bool verbose = false);
};
