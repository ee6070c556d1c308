// What torch-create-then-move must not flag.
// RUN: %torchtidy --quiet --checks='-*,torch-create-then-move' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Maker {
  torch::Tensor zeros(int) { return torch::Tensor(); }
};

int main(int argc, char **) {
  torch::Device device(argc > 1 ? torch::kCUDA : torch::kCPU);
  std::vector<float> host(4, 1.f);
  // Host data must start on the CPU.
  auto a = torch::from_blob(host.data(), {4}).to(device);
  auto b = torch::tensor({1, 2, 3}).to(device);
  // Already made on the device.
  auto c = torch::zeros({2}, torch::TensorOptions().device(device)).to(device);
  auto d = torch::ones({2}, torch::device(device));
  // A dtype conversion or a move to the CPU is not a device copy.
  auto e = torch::randn({2}).to(torch::kHalf);
  auto f = torch::randn({2}).to(torch::kCPU);
  // Moving an existing tensor, or a *_like factory of one.
  auto g = a.to(device);
  auto h = torch::zeros_like(a).to(device);
  // Not LibTorch's factory.
  Maker maker;
  auto i = maker.zeros(2).to(device);
  // Created, used, then moved later is not "at once".
  auto j = torch::randn({2});
  j.mul_(2);
  auto k = j.to(device);
  auto l = torch::ones({2}).to(a);
  return (a.sum() + b.sum() + c.sum() + d.sum() + e.sum() + f.sum() + g.sum() + h.sum() + i.sum() + k.sum() + l.sum()).item<float>() > 0;
}
// CHECK-MESSAGES-NOT: warning:
