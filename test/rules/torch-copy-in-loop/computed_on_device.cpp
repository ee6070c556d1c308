// LibTorch computes where its operands are: an op, a *_like factory or a
// module's forward of tensors on the device gives a tensor on the device,
// so moving it there again copies nothing. An in-place op stays where its
// tensor is, and an explicit device still wins.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  NetImpl() { fc = register_module("fc", torch::nn::Linear(2, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x).relu(); }
};
TORCH_MODULE(Net);

#define LIKE(t) torch::ones_like(t)
template <typename M> torch::Tensor run(M &m, const torch::Tensor &x) { return m->forward(x); }

void train(torch::nn::Sequential seq, Net net, std::vector<torch::Tensor> &batches, torch::Device other) {
  for (auto &b : batches) {
    auto x = b.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(device)' is a blocking copy from host to device
    auto out = seq->forward(x);
    auto target = torch::ones_like(out).to(device);
    auto mixed = (out * 0.5 + x).detach().to(device);
    auto own = net(x);
    auto again = torch::zeros_like(own).to(device);
    auto via_macro = LIKE(net->forward(x)).to(device);
    auto templated = run(seq, x).to(device);
    auto cat = torch::cat({out, x}).to(device);
    auto loss = torch::mse_loss(out, target).to(device);
    // An in-place op stays where its tensor is: the host tensor here.
    auto host = torch::zeros({2});
    auto filled = host.copy_(out).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: '.to(device)' is a blocking copy from host to device
    // Options that name another device: a copy between devices, not from the host.
    auto elsewhere = torch::ones_like(out, torch::TensorOptions().device(other)).to(device);
    auto moved_back = out.cpu().to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: '.to(device)' is a blocking copy from host to device
    // Operands from two devices: on one of them, not on the host.
    auto two = (x + torch::zeros({2}, torch::device(other))).to(device);
  }
}
