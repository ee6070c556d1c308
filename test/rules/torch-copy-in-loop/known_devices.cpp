// Known CPU devices: .to(cpu) reads back to the host (the host-sync check's
// business), never a host-to-device copy; nor is moving a module there.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};
#define HOST_DEVICE torch::Device(torch::kCPU)

template <typename T> void to_host_each(std::vector<T> &xs) {
  torch::Device cpu("cpu");
  for (auto &x : xs)
    x = x.to(cpu);
}
template void to_host_each(std::vector<torch::Tensor> &);

void run(std::vector<torch::Tensor> xs, torch::Device device) {
  torch::Device cpu("cpu");
  torch::Device host(torch::kCPU);
  const torch::Device fixed = torch::kCPU;
  auto copy = cpu;
  auto from_macro = HOST_DEVICE;
  auto cpu_opts = torch::TensorOptions().dtype(torch::kFloat).device(cpu);
  auto net = std::make_shared<Net>();
  for (auto &x : xs) {
    auto a = x.to(cpu);
    auto b = x.to(host);
    auto c = x.to(copy) + x.to(fixed) + x.to(from_macro) + x.to(cpu_opts);
    auto l = [&] { return x.to(cpu); }();
    net->to(cpu);
    auto on_device = x.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '.to(device)' is a blocking copy from host to device
  }
}

// A device variable that its function changes is not known.
void chosen_later(std::vector<torch::Tensor> xs) {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available())
    device = torch::Device(torch::kCUDA);
  for (auto &x : xs) {
    auto y = x.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(device)' is a blocking copy
  }
}

// A parameter's default is no initialiser: callers pass other devices.
void with_default(std::vector<torch::Tensor> xs, torch::Device device = torch::kCPU) {
  for (auto &x : xs) {
    auto y = x.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(device)' is a blocking copy
  }
}

// What every path gives the variable before its use decides: a device type
// chosen in a branch, then set to the CPU whatever the branch chose.
void chosen_then_overridden(std::vector<torch::Tensor> xs) {
  torch::DeviceType device_type;
  if (torch::cuda::is_available())
    device_type = torch::kCUDA;
  else
    device_type = torch::kCPU;
  torch::Device chosen(device_type);
  device_type = torch::kCPU;
  torch::Device device(device_type);
  for (auto &x : xs) {
    auto y = x.to(device);
    auto z = x.to(chosen);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(device)' is a blocking copy
  }
}
