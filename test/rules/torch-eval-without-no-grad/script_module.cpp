// A TorchScript module (torch/script.h, parsed apart from the shared PCH).
// RUN: not %torchtidy --quiet --checks='-*,torch-eval-without-no-grad' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <torch/script.h>

void score(torch::jit::script::Module network, std::vector<torch::Tensor> &xs) {
  network.eval();
  for (auto &x : xs) {
    std::vector<torch::jit::IValue> input{x};
    auto out = network.forward(input).toTensor();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: forward after 'eval()' runs with autograd recording
  }
}

void scored_without_grad(torch::jit::script::Module network, std::vector<torch::Tensor> &xs) {
  torch::NoGradGuard no_grad;
  network.eval();
  for (auto &x : xs)
    network.forward({x});
}
