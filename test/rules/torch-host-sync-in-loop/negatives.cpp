// RUN: %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

struct FakeTensor { float item() const { return 0; } FakeTensor cpu() const { return *this; } };
float accuracy(const torch::Tensor &t) { return t.item<float>(); }
float logged(const torch::Tensor &t, int i) { if (i % 10 == 0) return t.item<float>(); return 0; }

void run(torch::Tensor loss, int log_interval) {
  float total = accuracy(loss);           // not in a loop
  total += loss.item<float>();            // before the loop
  torch::Tensor acc = torch::zeros({1});
  FakeTensor f;
  for (int i = 0; i < 10; ++i) {
    if (i % 100 == 0)
      total += loss.item<float>();        // periodic logging
    if (i % log_interval == 0) {
      std::cout << loss;
      total += accuracy(loss);
    }
    acc += loss.detach();                 // stays on the device
    total += f.item();                    // not a tensor
    f.cpu();
    auto c = torch::ones({2}, torch::kCPU);
    total += c.item<float>();             // provably on the CPU
    auto h = loss.to(torch::kFloat);      // a dtype change, no transfer
    total += logged(loss, i);             // periodic inside the helper
    auto lam = [&] { return loss.item<float>(); };  // defined, not called
    (void)lam; (void)h;
  }
  size_t batch_idx = 0;
  for (auto &b : std::vector<torch::Tensor>{loss}) {
    if (++batch_idx % log_interval == 0)
      std::cout << b.item<float>();       // periodic on a counter of a range-for
  }
  for (int i = 0; i < 3; ++i) {
    auto cpu = torch::rand({4}, torch::TensorOptions().device(torch::kCPU));
    auto nz = torch::nonzero(cpu);        // a CPU factory: nothing to wait for
    bool any = cpu.is_nonzero();
    (void)nz; (void)any;
  }
  total += acc.item<float>();             // once after the loop
  auto back = loss.cpu();                 // after the loop
  (void)back; (void)total;
}
// CHECK-MESSAGES-NOT: warning:

// The program may run on a GPU; without this it would be CPU-only, and
// nothing in it would wait for one (cpu_only.cpp).
torch::Device pick_device() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
