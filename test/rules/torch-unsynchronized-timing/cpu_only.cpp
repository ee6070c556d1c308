// Code that never puts work on a GPU times what it runs.
// RUN: %torchtidy --quiet --checks='-*,torch-unsynchronized-timing' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <chrono>

double matmul_time(int n) {
  auto a = torch::randn({n, n}, torch::TensorOptions().device(torch::kCPU));
  auto s = std::chrono::steady_clock::now();
  auto c = torch::matmul(a, a);
  auto e = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(e - s).count();
}

double copied_device(torch::Tensor x) {
  torch::Device d = x.device();  // a copy: says nothing about CUDA
  auto s = std::chrono::steady_clock::now();
  auto y = x.to(d) * 2;
  auto e = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(e - s).count();
}
// CHECK-MESSAGES-NOT: warning:
