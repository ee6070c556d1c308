#include "loss.h"

torch::Tensor causalMask(int64_t n, const torch::Device &device) {
  torch::Tensor mask = (torch::triu(torch::ones({n, n}, device)) == 1).transpose(0, 1);
  mask = mask.to(torch::kFloat).masked_fill(mask == 0, -1.0);
  return mask;
}

torch::Tensor boxLoss(const torch::Tensor &pred, const std::vector<torch::Tensor> &targets) {
  auto opts = pred.options();
  torch::Tensor sum = torch::zeros({1}, opts);
  for (size_t i = 0; i < targets.size(); ++i)
    sum += (pred - targets[i].to(opts)).abs().sum();
  return sum;
}

torch::Tensor anyLoss(const torch::Tensor &pred, const std::vector<torch::Tensor> &targets) {
  torch::Tensor sum = torch::zeros({1}, pred.options());
  for (size_t i = 0; i < targets.size(); ++i)
    sum += (pred - targets[i].to(pred.device())).abs().sum();
  return sum;
}

torch::Tensor pointLoss(const torch::Tensor &pred, const torch::Tensor &target) {
  return (pred - target.to(pred.device())).abs().sum();
}

float firstValue(const torch::Tensor &t) { return t[0].item<float>(); }
