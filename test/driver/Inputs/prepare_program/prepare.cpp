#include "prepare.h"

std::vector<torch::Tensor> to_device(const std::vector<torch::Tensor> &xs, torch::Device d) {
  std::vector<torch::Tensor> out;
  for (const auto &x : xs)
    out.push_back(x.to(d));
  return out;
}

std::vector<torch::Tensor> collate(const std::vector<torch::Tensor> &xs, torch::Device d) {
  std::vector<torch::Tensor> out;
  for (const auto &x : xs)
    out.push_back(x.to(d));
  return out;
}
