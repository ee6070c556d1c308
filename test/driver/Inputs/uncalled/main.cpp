// Checked by ../../uncalled_program.test.
#include "draw.h"

#include <algorithm>
#include <functional>

float train(torch::nn::Linear model, torch::Tensor x, torch::Device device);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear model(4, 1);
  model->to(device);
  void (*log)(torch::Tensor) = logLosses;
  log(torch::rand({3}));
  std::vector<torch::Tensor> all{torch::rand({3})};
  std::for_each(all.begin(), all.end(), [](const auto &t) { drawEach(t); });
  std::function<float(torch::Tensor)> count = CountLoss();
  count(torch::rand({3}));
  return train(model, torch::rand({8, 4}), device) > 0 ? 0 : 1;
}
