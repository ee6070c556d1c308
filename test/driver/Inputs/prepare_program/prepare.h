#include <torch/torch.h>

std::vector<torch::Tensor> to_device(const std::vector<torch::Tensor> &xs, torch::Device d);
std::vector<torch::Tensor> collate(const std::vector<torch::Tensor> &xs, torch::Device d);
