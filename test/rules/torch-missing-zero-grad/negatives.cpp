// RUN: %torchtidy --quiet --checks='-*,torch-missing-zero-grad' %s -- %torch_flags -I%S/Inputs \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include "clear.h"

struct FakeOpt { void step() {} void zero_grad() {} };
struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::nn::Linear fc{nullptr};
};
void clear(torch::optim::SGD &opt) { opt.zero_grad(); }

void run(torch::Tensor loss, torch::optim::SGD &opt, std::shared_ptr<Net> net,
         std::vector<torch::Tensor> batches, int k) {
  for (int i = 0; i < 10; ++i) {          // zero_grad first
    opt.zero_grad(); loss.backward(); opt.step();
  }
  for (int i = 0; i < 10; ++i) {          // zero_grad at the end
    loss.backward(); opt.step(); opt.zero_grad();
  }
  for (int i = 0; i < 10; ++i) {          // gradient accumulation
    loss.backward();
    if ((i + 1) % k == 0) { opt.step(); opt.zero_grad(); }
  }
  for (auto &b : batches) {               // zero_grad in a helper
    clear(opt); b.backward(); opt.step();
  }
  for (auto &b : batches) {               // helper in a header
    header_clear(opt); b.backward(); opt.step();
  }
  for (auto &b : batches) {               // the module clears
    net->zero_grad(); b.backward(); opt.step();
  }
  for (auto &b : batches) {               // explicit per-parameter clearing
    for (auto &p : net->parameters())
      if (p.grad().defined()) p.mutable_grad().zero_();
    b.backward(); opt.step();
  }
  for (auto &b : batches) {
    for (auto &p : net->parameters()) p.mutable_grad().reset();
    b.backward(); opt.step();
  }
  FakeOpt fake;
  for (int i = 0; i < 3; ++i) {           // not an optimizer
    loss.backward(); fake.step();
  }
  for (int i = 0; i < 3; ++i)             // no backward: evaluation
    opt.step();
  for (int i = 0; i < 3; ++i)             // no step
    loss.backward();
  for (int i = 0; i < 3; ++i) {           // cleared in some branch: the user decides
    if (i == 0) opt.zero_grad();
    loss.backward(); opt.step();
  }
  for (int i = 0; i < 3; ++i) {           // set_to_none through the module holder
    net->zero_grad(/*set_to_none=*/true);
    loss.backward(); opt.step();
  }
  loss.backward(); opt.step();            // not in a loop
  auto lam = [&] { opt.zero_grad(); };
  for (int i = 0; i < 3; ++i) {           // zero_grad in a lambda
    lam(); loss.backward(); opt.step();
  }
}

// A trainer template nothing instantiates: its module's zero_grad() names
// no declaration yet, and clears all the same.
template <typename NetT> struct Trainer {
  std::shared_ptr<NetT> net;
  torch::optim::SGD opt{std::vector<torch::Tensor>{}, 0.1};
  void fit(torch::Tensor x) {
    for (int i = 0; i < 3; ++i) {
      this->net->zero_grad();
      torch::Tensor loss = x.sum();
      loss.backward();
      opt.step();
    }
  }
};
// CHECK-MESSAGES-NOT: warning:
