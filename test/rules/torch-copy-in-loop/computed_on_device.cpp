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
    // One operand on the device is enough: LibTorch needs the others there
    // too (b's place is unknown), also down a chain of ops and locals.
    auto probs = torch::softmax(out, -1);
    auto picked = torch::multinomial(probs, 1);
    auto seq_all = torch::cat({b.clone(), picked}, 1).to(device);
    auto scaled = (b * out).to(device);
    // Not for a result that is its object: x.expand_as(y), x.view_as(y),
    // an in-place op, an assignment.
    auto expanded = torch::ones({2}).expand_as(out).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: '.to(device)' is a blocking copy from host to device
    auto viewed = b.view_as(out).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: '.to(device)' is a blocking copy from host to device
    auto indexed = b.index_put_({0}, out).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: '.to(device)' is a blocking copy from host to device
    auto added = (b += out).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: '.to(device)' is a blocking copy from host to device
    auto typed = b.type_as(out).to(device);
  }
}

// A module moved to the device computes there, whatever is known of its
// input (an input elsewhere would fail against its parameters); not when
// its forward moves the result itself, nor once other code may have moved
// the module.
struct ToHostImpl : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  ToHostImpl() { fc = register_module("fc", torch::nn::Linear(2, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x).cpu(); }
};
TORCH_MODULE(ToHost);

void moved_modules(std::vector<torch::Tensor> xs, void (*hand)(Net &)) {
  auto model = std::make_shared<NetImpl>();
  model->to(device);
  ToHost back;
  back->to(device);
  Net other;
  other->to(device);
  for (auto &x : xs) {
    auto in = x.view({1, 2});
    auto pred = model->forward(in);
    auto kept = pred.to(device);
    auto returned = back->forward(in).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: '.to(device)' is a blocking copy from host to device
    auto handed = other->forward(in).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '.to(device)' is a blocking copy from host to device
    hand(other);
  }
}
