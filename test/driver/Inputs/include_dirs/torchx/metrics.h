// The project's own header, found through -I as LibTorch is: not a system header.
#pragma once
#include <torch/torch.h>

inline double mean_abs(const torch::Tensor &t) {
  double s = 0;
  for (int64_t r = 0; r < t.size(0); ++r)
    s += t[r].abs().mean().item<double>();
  return s;
}
