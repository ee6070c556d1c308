#pragma once
#include <torch/torch.h>
inline float header_accuracy(const torch::Tensor &t) { return t.item<float>(); }
