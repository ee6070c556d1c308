#include "tiles.h"

torch::Tensor tiled(torch::Tensor in, std::function<torch::Tensor(torch::Tensor)> fn) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < in.size(0); ++i)
    out.push_back(fn(in[i]));
  return torch::stack(out);
}
