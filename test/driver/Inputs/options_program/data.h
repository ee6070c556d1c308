#pragma once
#include <torch/torch.h>

// A sample that moves itself where the options say, as detection
// projects write it (to(const TensorOptions &)).
struct Sample {
  torch::Tensor image, boxes;
  void to(const torch::TensorOptions &opts);
};

void place(Sample &s, const torch::TensorOptions &opts);
