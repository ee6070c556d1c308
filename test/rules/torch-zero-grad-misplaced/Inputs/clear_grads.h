#pragma once
#include <torch/torch.h>
// A helper in the project's own header that clears the gradients.
inline void clear_grads(torch::optim::Optimizer &opt) { opt.zero_grad(); }
