#pragma once
#include <torch/torch.h>

// A mask made on the device it is given.
torch::Tensor causalMask(int64_t n, const torch::Device &device);
// Loss against targets that every caller has put on the device.
torch::Tensor boxLoss(const torch::Tensor &pred, const std::vector<torch::Tensor> &targets);
// Called with device targets and with host ones.
torch::Tensor anyLoss(const torch::Tensor &pred, const std::vector<torch::Tensor> &targets);
// Moves its target to the prediction's device: a copy only for a caller
// whose target is not there already.
torch::Tensor pointLoss(const torch::Tensor &pred, const torch::Tensor &target);
// Reads its tensor's first value back: a sync only for a caller whose
// tensor is on a device.
float firstValue(const torch::Tensor &t);
