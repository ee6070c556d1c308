// Known CPU devices: .to(cpu) reads a tensor that may be on the GPU back to
// the host; what is made or moved there lives on the host.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#define HOST torch::Device(torch::kCPU)
template <typename T> float read_back(const T &t) {
  const torch::Device cpu("cpu");
  auto h = t.to(cpu);
  return h.template item<float>();
}

float run(std::vector<torch::Tensor> xs, torch::Device device) {
  torch::Device cpu("cpu");
  auto host = torch::Device(torch::kCPU);
  auto cpu_opts = torch::TensorOptions().device(cpu);
  auto from_macro = HOST;
  auto on_cpu = torch::zeros({1}, torch::device(cpu));
  float total = 0;
  std::vector<torch::Tensor> kept;
  for (auto &x : xs) {
    auto y = x.to(device);
    auto back = y.to(cpu);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.to(cpu)' copies the tensor to the host and waits for the GPU on every iteration
    total += back.item<float>();  // already on the host
    auto h = y.to(host);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(host)' copies the tensor to the host
    total += h.item<float>();
    total += torch::ones({1}, cpu_opts).item<float>();
    total += torch::zeros({1}, torch::device(from_macro)).item<float>();
    total += on_cpu.item<float>();
    auto keep = [&](const torch::Tensor &t) { kept.push_back(t.to(cpu)); };
    keep(y);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'keep' runs '.to(cpu)', which copies the tensor to the host
    total += read_back(y);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'read_back' runs '.to(cpu)', which copies the tensor to the host
  }
  return total;
}

// A device variable that its function changes is not known to be the CPU.
float changed(std::vector<torch::Tensor> xs) {
  torch::Device dev(torch::kCPU);
  if (torch::cuda::is_available())
    dev = torch::Device(torch::kCUDA);
  float total = 0;
  for (auto &x : xs) {
    auto made = torch::zeros({1}, torch::device(dev));
    total += made.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.item()' copies the value to the host
  }
  return total;
}
