// A helper's return is judged for the call that asks: while its body is
// read, its parameters hold that call's arguments (a device left at its
// default, the CPU; the tensor the call passes). One helper can so return a
// host tensor to one call and a device tensor to another.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

static torch::Tensor append_zero(const torch::Tensor &x) {
  return torch::cat({x, torch::zeros({1}, x.options())});
}

static torch::Tensor sigmas(int n, torch::Device device = torch::kCPU) {
  torch::Tensor ramp = torch::linspace(0.0, 1.0, n, torch::TensorOptions().device(device));
  torch::Tensor s = torch::pow(1.0 + ramp, 2.0);
  s = append_zero(s);
  return s;
}

// Its only call passes sigmas(8): a host tensor.
static float sample(torch::Tensor s) {
  float total = 0;
  for (int i = 0; i < 4; ++i)
    total += s[i].item<float>();
  return total;
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::Tensor on_host = sigmas(8);
  torch::Tensor on_cpu = sigmas(8, torch::kCPU);
  torch::Tensor on_device = sigmas(8, device);
  auto twice = [](const torch::Tensor &x) { return x * 2; };
  float sum = sample(sigmas(8));
  for (int i = 0; i < 4; ++i) {
    sum += on_host[i].item<float>();
    sum += on_cpu[i].item<float>();
    sum += append_zero(torch::ones({2}))[i].item<float>();
    sum += twice(torch::ones({2}))[i].item<float>();
    sum += on_device[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '.item()' copies the value to the host
    sum += append_zero(on_device)[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '.item()' copies the value to the host
    sum += twice(on_device)[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: '.item()' copies the value to the host
  }
  return int(sum);
}
