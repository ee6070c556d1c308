// The LibTorch calls that read a value back to the host (rules/SyncingOps.def),
// found on their declarations with LibTorch's headers parsed as system headers.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags -I%S/Inputs \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>
#include "norms.h"

bool same(const torch::Tensor &a, const torch::Tensor &b) { return a.equal(b); }

void train(torch::nn::Linear net, torch::Tensor x, torch::Tensor mask) {
  torch::Tensor cpu_losses = torch::zeros({10}, torch::kCPU);
  auto host = torch::empty({4}, torch::TensorOptions().device(torch::kCPU));
  for (int i = 0; i < 10; ++i) {
    auto loss = net->forward(x).sum();
    loss.backward();
    auto norm = torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'torch::nn::utils::clip_grad_norm_' reads the total norm back to the host to return it as a double and waits for the GPU on every iteration
    norm += clip_all(*net, 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: call to 'clip_all' runs 'torch::nn::utils::clip_grad_norm_', which reads the total norm back
    if (torch::equal(x, loss)) {}
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'torch::equal' reads the data back to compute its answer
    if (same(x, loss)) {}
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: call to 'same' runs '.equal()', which reads the data back to compute its answer
    auto close = x.allclose(loss) || torch::allclose(loss, x);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.allclose()' reads the data back to compute its answer
    // CHECK-MESSAGES: :[[@LINE-2]]:38: warning: 'torch::allclose' reads the data back
    bool nz = torch::is_nonzero(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'torch::is_nonzero' reads the data back to compute its answer
    auto idx = x.nonzero();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '.nonzero()' reads the data back to size its result
    auto where = x.argwhere();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.argwhere()' reads the data back to size its result
    auto rows = torch::nonzero_numpy(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'torch::nonzero_numpy' reads the data back to size its result
    auto picked = torch::masked_select(x, mask);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'torch::masked_select' reads the data back to size its result
    auto u = torch::_unique(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'torch::_unique' reads the data back to size its result
    auto u2 = torch::_unique2(x, true, false, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'torch::_unique2' reads the data back
    auto uc = torch::unique_consecutive(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'torch::unique_consecutive' reads the data back
    auto ud = torch::unique_dim(x, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'torch::unique_dim' reads the data back
    auto udc = at::unique_dim_consecutive(x, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'torch::unique_dim_consecutive' reads the data back
    auto wh = torch::where(mask);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'torch::where' of a condition alone reads the data back to size its result
    auto row = x[mask.sum()];
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: indexing with a tensor reads the index back to the host and waits for the GPU on every iteration
    std::cout << loss << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: streaming a tensor with '<<' copies it to the host to print it
    cpu_losses[i] = loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: assigning a tensor into a CPU tensor copies the tensor to the host and waits for the GPU on every iteration
    cpu_losses.index_put_({i}, loss.detach());
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.index_put_()' into a CPU tensor copies the tensor to the host
    host.narrow(0, 0, 1).copy_(x.slice(0, 0, 1));
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.copy_()' into a CPU tensor copies the tensor to the host
    (void)close; (void)nz; (void)idx; (void)where; (void)rows; (void)picked; (void)wh; (void)row;
  }
}

// Not a sync: no read back, a destination or a source on the CPU, or a
// pinned destination that may be written asynchronously.
void no_sync(torch::nn::Linear net, torch::Tensor x, torch::Tensor y) {
  torch::Tensor cpu_losses = torch::zeros({10}, torch::kCPU);
  auto pinned = torch::empty({4}, torch::TensorOptions().pinned_memory(true));
  auto a = torch::ones({4}, torch::kCPU);
  for (int i = 1; i < 10; ++i) {
    torch::nn::utils::clip_grad_value_(net->parameters(), 1.0);
    auto n = torch::count_nonzero(x);
    auto s = x.masked_fill(x > 0, 0);
    cpu_losses[i] = 3.0;
    cpu_losses[i] = cpu_losses[i - 1];
    cpu_losses.index_put_({i}, a[0]);
    x[i] = y;                       // the destination may be on the GPU
    y.copy_(x);
    pinned.copy_(x, /*non_blocking=*/true);
    if (torch::equal(a, a)) {}
    if (a.allclose(a)) {}
    auto k = a.nonzero();
    auto chosen = torch::where(x > 0, x, y);  // the three-argument overload reads nothing
    auto first = x[0];
    auto host_row = x[a.sum()];               // the index is on the CPU
    std::cout << a << "\n";
    if (i % 5 == 0) {
      auto norm = torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
      (void)norm;
    }
    (void)n; (void)s; (void)k; (void)chosen; (void)first; (void)host_row;
  }
}

// The program may run on a GPU (else the copy and sync checks have nothing to say).
torch::Device pick_device() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
