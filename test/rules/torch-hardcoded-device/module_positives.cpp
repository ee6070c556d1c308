// Hard-coded CUDA devices inside torch::nn::Module subclasses.
// RUN: not %torchtidy --quiet --checks='-*,torch-hardcoded-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#define TO_GPU(t) (t).cuda()
using Tensor_t = torch::Tensor;

struct Net : torch::nn::Module {
  Net() {
    w = register_parameter("w", torch::randn({3}).cuda());
    // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: '.cuda()' in module 'Net' puts the tensor on the current CUDA device (cuda:0) and it stays there when the module is moved with 'to(device)'; use '.to(<device>)' with the module's device [torch-hardcoded-device]
    b = register_buffer("b", torch::zeros({3}, torch::kCUDA));
    // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: device 'torch::kCUDA' is hard-coded in module 'Net'; tensors made here ignore 'module->to(device)'; take the device from an input ('x.device()') or a parameter [torch-hardcoded-device]
  }
  torch::Tensor forward(torch::Tensor x) {
    auto y = torch::ones({3}, torch::TensorOptions().device(torch::Device("cuda:1")));
    // CHECK-MESSAGES: :[[@LINE-1]]:61: warning: device 'torch::Device("cuda:1")' is hard-coded in module 'Net'
    auto z = y.to(torch::Device(torch::kCUDA, 1));
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: device 'torch::Device(torch::kCUDA, 1)' is hard-coded in module 'Net'
    auto e = torch::empty({3}, torch::device(c10::DeviceType::CUDA));
    // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: device 'c10::DeviceType::CUDA' is hard-coded in module 'Net'
    auto a = torch::arange(3, at::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: device 'at::kCUDA' is hard-coded in module 'Net'
    return x + w + z + e + a + helper();
  }
  torch::Tensor helper();
  torch::Tensor w, b;
};

// An out-of-line member function is still the module's code.
torch::Tensor Net::helper() {
  auto t = torch::ones({3});
  auto g = t.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '.cuda()' in module 'Net'
  Tensor_t alias = torch::zeros({2});
  auto lambda = [&] { return alias.cuda(); };
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: '.cuda()' in module 'Net'
  auto m = TO_GPU(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '.cuda()' in module 'Net'
  // CHECK-MESSAGES: module_positives.cpp:6:23: note: expanded from macro 'TO_GPU'
  return g + lambda() + m;
}

// A class template deriving from Module, instantiated below.
template <typename T> struct Generic : torch::nn::Module {
  torch::Tensor forward(T x) { return x.cuda(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: '.cuda()' in module 'Generic'
};
template struct Generic<torch::Tensor>;

// A module deriving from another module.
struct Derived : Net {
  torch::Tensor bias = torch::zeros({3}).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: '.cuda()' in module 'Derived'
};

// With exactly one torch::Device in scope, the fix-it names it.
struct WithDevice : torch::nn::Module {
  explicit WithDevice(torch::Device d) : device_(d) {}
  torch::Tensor make() { return torch::ones({2}).cuda(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: '.cuda()' in module 'WithDevice'
  // CHECK-MESSAGES-NEXT: {{^}}  torch::Tensor make() { return torch::ones({2}).cuda(); }
  // CHECK-MESSAGES-NEXT: {{^}}                                                 ^~~~~~
  // CHECK-MESSAGES-NEXT: {{^}}                                                 to(device_)
  torch::Device device_;
};
