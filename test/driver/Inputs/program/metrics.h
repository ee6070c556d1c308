#pragma once
#include <torch/torch.h>

double accuracy(const torch::Tensor &logits, const torch::Tensor &target);
torch::Tensor smooth(const torch::Tensor &x);
double everyHundred(const torch::Tensor &x, int64_t step);

struct Metric {
  virtual ~Metric() = default;
  virtual double compute(const torch::Tensor &x) = 0;
};
std::unique_ptr<Metric> makeMetric();
