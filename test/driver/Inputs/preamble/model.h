// The project's own header, first in model_first.cpp: its preamble holds it.
#pragma once
#include <torch/torch.h>

inline double mean_abs(const torch::Tensor &t) {
  double s = 0;
  for (int64_t r = 0; r < t.size(0); ++r)
    s += t[r].abs().mean().item<double>();
  return s;
}
