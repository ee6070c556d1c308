#include <torch/torch.h>
#include <opencv2/opencv.hpp>
struct Net : torch::nn::Module {
  torch::Tensor w = torch::ones({2}).cuda();
};
