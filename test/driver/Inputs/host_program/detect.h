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

// Boxes scaled back to the image by a private step that only the class's
// own methods, all defined in detect.cpp, can call.
class Detector {
public:
  std::vector<torch::Tensor> detect(torch::Tensor images);

private:
  std::vector<torch::Tensor> rescale(std::vector<torch::Tensor> boxes);
};

// The same, but with a method defined in another file, which could call
// the private step with device tensors.
class Tracker {
public:
  std::vector<torch::Tensor> track(torch::Tensor images);
  void reset();

private:
  std::vector<torch::Tensor> rescale(std::vector<torch::Tensor> boxes);
};
