#pragma once
#include <torch/torch.h>
inline torch::Tensor header_move(const torch::Tensor &t, torch::Device d) { return t.to(d); }
