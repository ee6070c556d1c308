// Factories filled on the CPU and copied to the device at once.
// RUN: not %torchtidy --quiet --checks='-*,torch-create-then-move' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#define MOVED(e, d) (e).to(d)

template <typename D> torch::Tensor make_on(D device) { return at::ones({2}).to(device); }
// CHECK-MESSAGES: :[[@LINE-1]]:78: warning: 'ones' fills the tensor on the CPU and '.to()' then copies it to the device; create it there: pass 'torch::TensorOptions().device(...)' to 'ones' [torch-create-then-move]

int main(int argc, char **) {
  torch::Device device(argc > 1 ? torch::kCUDA : torch::kCPU);
  auto w = torch::randn({4, 4}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'randn' fills the tensor on the CPU and '.to()' then copies it to the device
  // CHECK-MESSAGES-NEXT: {{^}}  auto w = torch::randn({4, 4}).to(device);
  // CHECK-MESSAGES-NEXT: {{^}}                               ~^~~~~~~~~~
  // CHECK-MESSAGES-NEXT: {{^}}                              , torch::TensorOptions().device(device)
  auto f = torch::full({2}, 3.0).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'full' fills the tensor on the CPU and '.cuda()' then copies it
  auto i = torch::zeros({2}, torch::kFloat).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: 'zeros' fills the tensor on the CPU
  auto r = torch::arange(10).to(device, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'arange' fills the tensor on the CPU
  auto e = torch::eye(3).to(torch::Device(torch::kCUDA, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'eye' fills the tensor on the CPU
  auto m = MOVED(torch::empty({3}), device);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'empty' fills the tensor on the CPU
  // CHECK-MESSAGES: positives.cpp:6:25: note: expanded from macro 'MOVED'
  auto lambda = [&] { return torch::rand({2}).to(device); };
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'rand' fills the tensor on the CPU
  auto k = torch::randint(0, 4, {8}).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'randint' fills the tensor on the CPU
  auto t = make_on(device);
  return (w.sum() + f.sum() + i.sum() + r.sum() + e.sum() + m.sum() + lambda().sum() + k.sum() + t.sum()).item<float>() > 0;
}
