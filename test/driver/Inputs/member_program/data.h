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

// A dataset as LibTorch's data loaders take it: get() is virtual.
class Images : public torch::data::Dataset<Images> {
public:
  torch::data::Example<> get(size_t index) override;
  torch::optional<size_t> size() const override;
};
