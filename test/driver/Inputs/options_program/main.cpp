#include "data.h"

void train(std::vector<Sample> &samples) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  for (Sample &s : samples)
    s.to(device);
  for (Sample &s : samples)
    place(s, torch::TensorOptions().device(device));
  for (Sample &s : samples)
    s.to(torch::kFloat);
  for (Sample &s : samples)
    place(s, torch::TensorOptions().dtype(torch::kHalf));
}

void evaluate(std::vector<Sample> &samples, const torch::TensorOptions &opts) {
  torch::Device cpu("cpu");
  for (Sample &s : samples)
    s.to(cpu);
  for (Sample &s : samples)
    place(s, opts);
}
