// Device fixed in program code, and .cuda() in registered parameters
// reached through ModuleHolder and std::shared_ptr.
// RUN: not %torchtidy --quiet --checks='-*,torch-hardcoded-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};
TORCH_MODULE(Net);

torch::Device global_device(torch::kCUDA);
// CHECK-MESSAGES: :[[@LINE-1]]:15: warning: device 'global_device' is fixed to CUDA with no CPU fallback; the program fails on a machine without a GPU [torch-hardcoded-device]
// CHECK-MESSAGES: :[[@LINE-2]]:15: note: select it once: 'torch::Device global_device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU)'

int main() {
  torch::Device device(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device 'device' is fixed to CUDA with no CPU fallback
  torch::Device second = torch::Device("cuda:1");
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device 'second' is fixed to CUDA with no CPU fallback
  auto third = torch::Device(c10::DeviceType::CUDA, 0);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: device 'third' is fixed to CUDA with no CPU fallback

  Net net;
  net->register_parameter("extra", torch::ones({2}).cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: '.cuda()' in a registered parameter puts the tensor on the current CUDA device (cuda:0)
  // CHECK-MESSAGES-NOT: {{^ *to\(}}
  auto shared = std::make_shared<NetImpl>();
  shared->register_buffer("running", torch::zeros({2}).cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: '.cuda()' in a registered parameter
  // The fix-it names the one device variable in scope... here there are
  // three, so none is offered.
  // CHECK-MESSAGES-NOT: {{^ *to\(}}
  net->to(device);
  return 0;
}
