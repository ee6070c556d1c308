// A device member that defaults to CUDA and a device set to CUDA outside any
// branch are fixed like a device variable; an assignment under an if (a
// CUDA test, a command-line flag) selects, and so does a module that moves
// itself to CUDA when CUDA is there. A device type variable (auto d =
// torch::kCUDA) is fixed like a device, unless it is only compared.
// RUN: not %torchtidy --quiet --checks='-*,torch-hardcoded-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct TrainParams {
  torch::Device device{torch::kCUDA};
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device member 'device' defaults to CUDA with no CPU fallback; the program fails on a machine without a GPU [torch-hardcoded-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:17: note: default it to 'torch::cuda::is_available() ? torch::kCUDA : torch::kCPU'
  torch::Device eval_device = torch::Device(torch::kCUDA, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device member 'eval_device' defaults to CUDA
  torch::Device host{torch::kCPU};
  int epochs = 10;
};

struct NetImpl : torch::nn::Module {
  NetImpl() {
    fc = register_module("fc", torch::nn::Linear(4, 2));
    if (torch::cuda::is_available())
      this->to(torch::kCUDA, torch::kFloat32);
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

int main(int argc, char **argv) {
  TrainParams params;
  params.device = torch::kCUDA;
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: device 'params.device' is set to CUDA with no CPU fallback
  // CHECK-MESSAGES: :[[@LINE-2]]:19: note: set it to 'torch::cuda::is_available() ? torch::kCUDA : torch::kCPU'
  torch::Device device = torch::kCPU;
  if (torch::cuda::is_available())
    device = torch::kCUDA;
  if (argc > 1 && std::string(argv[1]) == "--gpu")
    params.device = torch::kCUDA;
  params.host = torch::kCPU;
  auto const viewer_device = torch::kCUDA;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: device 'viewer_device' is fixed to CUDA with no CPU fallback
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: select it once: 'torch::Device viewer_device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU)'
  auto frame = torch::zeros({2}, torch::TensorOptions().device(viewer_device));
  const auto cuda_type = torch::kCUDA;
  bool on_gpu = frame.device().type() == cuda_type;
  Net net;
  net->to(device);
  return on_gpu ? 1 : 0;
}
