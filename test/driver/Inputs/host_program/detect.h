#pragma once
#include <torch/torch.h>

// Boxes of each image, copied to the host.
std::vector<torch::Tensor> predict(torch::Tensor images);
float draw(const torch::Tensor &boxes);
float drawAll(const std::vector<torch::Tensor> &boxes);
float drawAny(torch::Tensor boxes);
float score(torch::Tensor boxes);
float scoreAny(torch::Tensor boxes);
float (*pickScorer())(torch::Tensor);
