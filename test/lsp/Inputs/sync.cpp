#include <torch/torch.h>

float loop(torch::Tensor t) {
  float total = 0;
  for (int i = 0; i < 10; ++i)
    total += t.sum().item<float>();
  return total;
}
