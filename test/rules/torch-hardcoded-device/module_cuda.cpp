// RUN: not %torchtidy --quiet --checks='-*,torch-hardcoded-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() {
    w = register_parameter("w", torch::randn({3}).cuda());
    // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: '.cuda()' in module 'Net' puts the tensor on the current CUDA device (cuda:0) {{.*}} [torch-hardcoded-device]
  }
  torch::Tensor w;
};
