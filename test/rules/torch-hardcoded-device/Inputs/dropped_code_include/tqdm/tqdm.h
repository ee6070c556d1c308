// The names Inputs/dropped_code.cpp takes from tqdm, for the run where the
// header is there and the file compiles.
#pragma once
#include <torch/torch.h>
#include <vector>

namespace tqdm {
inline std::vector<int> range(int n) { return std::vector<int>(n); }
struct Meter {
  explicit Meter(const torch::Tensor &) {}
};
inline torch::Tensor wrap(torch::Tensor t) { return t; }
struct Camera {};
inline torch::Tensor look(const Camera &) { return torch::eye(4); }
inline void log(const char *) {}
} // namespace tqdm
inline void show(const torch::Tensor &) {}
