#pragma once
#include <torch/torch.h>
// A helper in a project header: clipping returns the norm as a double.
inline double clip_all(torch::nn::Module &m, double max_norm) {
  return torch::nn::utils::clip_grad_norm_(m.parameters(), max_norm);
}
