#pragma once
#include <torch/torch.h>
inline void header_clear(torch::optim::Optimizer &o) { o.zero_grad(); }
inline void header_step(torch::optim::Optimizer &o) { o.step(); }
