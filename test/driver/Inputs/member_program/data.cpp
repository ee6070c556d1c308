#include "data.h"

Element DataSet::get(size_t index) {
  torch::Tensor img = torch::rand({3, 8, 8});
  torch::Tensor label = torch::full({1}, static_cast<int64_t>(index));
  return Element(img, label);
}

Element DataSet::onDevice(size_t index, torch::Device device) {
  return Element(torch::rand({3, 8, 8}, device), torch::zeros({1}));
}

torch::data::Example<> DataSet::example(size_t index) {
  return {torch::rand({3, 8, 8}).to(torch::kCUDA), torch::zeros({1})};
}

torch::data::Example<> Images::get(size_t index) {
  torch::Tensor label = torch::full({1}, static_cast<int64_t>(index));
  return {torch::rand({3, 8, 8}).to(torch::kCUDA), label};
}

torch::optional<size_t> Images::size() const { return 100; }
