// Factories in forward() that ignore the input's device.
// RUN: not %torchtidy --quiet --checks='-*,torch-forward-factory-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#define MASK(n) torch::ones({n})

struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto a = torch::zeros({3});
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'zeros' in 'NetImpl::forward' makes a CPU tensor whatever device the input is on; pass the input's options ('x.options()') or device, or use 'torch::zeros_like(x)' [torch-forward-factory-device]
    auto b = torch::randn({3}, torch::kFloat);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'randn' in 'NetImpl::forward'
    auto c = at::empty({3});
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'empty' in 'NetImpl::forward'
    auto d = torch::full({3}, 0.5);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'full' in 'NetImpl::forward'
    auto e = torch::arange(3);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'arange' in 'NetImpl::forward'
    auto f = torch::tensor({1.f, 2.f, 3.f});
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'tensor' in 'NetImpl::forward' makes a CPU tensor whatever device the input is on; pass the input's options ('x.options()') or device, or use 'torch::tensor(...).to(x.device())'
    auto g = MASK(3);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'ones' in 'NetImpl::forward'
    // CHECK-MESSAGES: positives.cpp:6:24: note: expanded from macro 'MASK'
    auto h = [&] { return torch::eye(3); }();
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'eye' in 'NetImpl::forward'
    return x + a + b + c + d + e + f + g + h.sum();
  }
};
TORCH_MODULE(Net);

template <typename T> struct Generic : torch::nn::Module {
  T forward(T x) { return x + torch::ones({3}); }
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'ones' in 'Generic::forward'
};
template struct Generic<torch::Tensor>;
