#include "model.h"

ClassifierImpl::ClassifierImpl(int64_t in, int64_t hidden, int64_t classes)
    : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
      fc2(register_module("fc2", torch::nn::Linear(hidden, classes))) {
  // Stays on cuda:0 when the model is moved to another device.
  bias = register_parameter("bias", torch::zeros({classes}).cuda());
}

torch::Tensor ClassifierImpl::forward(torch::Tensor x) {
  // A fresh CUDA tensor every call, whatever device the input is on.
  auto keep = torch::ones({x.size(1)}, torch::kCUDA);
  x = torch::relu(fc1->forward(x * keep));
  return fc2->forward(x) + bias;
}
