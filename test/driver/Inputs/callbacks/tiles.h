#pragma once
#include <torch/torch.h>

#include <functional>

// Runs fn on each row of in (a tile), in a loop of its own.
torch::Tensor tiled(torch::Tensor in, std::function<torch::Tensor(torch::Tensor)> fn);
