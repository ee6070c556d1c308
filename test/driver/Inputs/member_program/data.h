#pragma once
#include <torch/torch.h>

struct Element {
  Element(torch::Tensor img, torch::Tensor label) : img{img}, label{label} {}
  torch::Tensor img;
  torch::Tensor label;
};

class DataSet {
public:
  Element get(size_t index);
  Element onDevice(size_t index, torch::Device device);
  torch::data::Example<> example(size_t index);
};
