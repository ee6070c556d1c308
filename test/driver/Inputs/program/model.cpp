#include "model.h"

NetImpl::NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}

torch::Tensor NetImpl::forward(torch::Tensor x) {
  torch::Tensor y = fc(x);
  return y.cpu();
}
