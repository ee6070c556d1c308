// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags -I%S/Inputs \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include "step.h"

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

torch::Tensor train_step(const torch::Tensor &x, torch::Device d) { return x.to(d); }
template <typename T> T tmpl_move(const T &t, torch::Device d) { return t.to(d); }
#define TO_GPU(x) (x).cuda()
void train_epoch(std::vector<torch::Tensor> &xs, torch::Device d) {
  for (auto &x : xs)
    x = x.to(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '.to(device)' is a blocking copy
}
struct Loader {
  torch::Tensor batch = torch::rand({8});
  torch::Tensor next(torch::Device d) { return batch.to(d); }
};

void run(torch::Device device, std::vector<torch::Tensor> xs) {
  auto dataset = torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>());
  auto data_loader = torch::data::make_data_loader(std::move(dataset), 64);
  auto net = std::make_shared<Net>();
  torch::Tensor weights = torch::ones({4});
  for (auto &batch : *data_loader) {
    auto data = batch.data.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: '.to(device)' is a blocking copy from host to device, on every iteration; on a CUDA device pin the batch (pin_memory() throws on a CPU-only LibTorch: if (device.is_cuda()) batch = batch.pin_memory();) and pass non_blocking=true, or move data that does not change once before the loop [torch-copy-in-loop]
    auto target = batch.target.to(device, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: '.to(device)' has non_blocking=true on a source not known to be pinned, so the copy from pageable memory still blocks the host
    auto w = weights.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '.to(device)' copies 'weights', which is defined outside the loop and does not change in it, to the device on every iteration; move it once before the loop
    net->to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: '->to()' on a module copies every parameter and buffer to the device on every iteration; move the module once before the loop
    auto g = batch.data.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '.cuda()' is a blocking copy
    auto k = batch.data.to(torch::kCUDA);
    // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '.to(torch::kCUDA)' is a blocking copy
    auto s = train_step(batch.data, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'train_step' runs '.to(device)', which is a blocking copy
    // CHECK-MESSAGES: :[[@LINE-33]]:78: note: the copy '.to(device)' is made here
    auto hm = header_move(batch.data, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: call to 'header_move' runs '.to(device)'
    auto tm = tmpl_move(batch.data, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: call to 'tmpl_move' runs '.to(device)'
    auto mg = TO_GPU(batch.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: '.cuda()' is a blocking copy
  }
  auto mover = [&](const torch::Tensor &t) { return t.to(device); };
  bool done = false;
  int n = 0;
  while (!done) {
    auto y = mover(xs[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'mover' runs '.to(device)'
    done = ++n > 3;
  }
  for (int e = 0; e < 2; ++e) {
    for (auto &x : xs) {
      auto y = x.to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '.to(device)' is a blocking copy
      // CHECK-MESSAGES: :[[@LINE-3]]:5: note: in this loop
    }
  }
  for (int e = 0; e < 2; ++e)
    train_epoch(xs, device);  // reported at the helper's own loop, not again here
  Loader loader;
  for (int i = 0; i < 3; ++i) {
    auto a = xs[0].to(torch::Device(torch::kCUDA, 1));
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.to(torch::kCUDA)' is a blocking copy
    auto b = xs[1].to(xs[0]);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.to(device)' is a blocking copy
    auto c = loader.next(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: call to 'next' runs '.to(device)', which is a blocking copy
    // CHECK-MESSAGES: :[[@LINE-56]]:54: note: the copy '.to(device)' is made here
    auto p = xs[0].to(device, /*non_blocking=*/false);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.to(device)' is a blocking copy
  }
}

// The same loop over tensors that are not a module's state is a copy per
// element; as is a parameter copied in a loop that is not over them.
void move_list(std::vector<torch::Tensor> &tensors, torch::nn::Linear &model,
               const torch::Device &device) {
  for (auto &t : tensors)
    t = t.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '.to(device)' is a blocking copy
  for (int i = 0; i < 3; ++i)
    for (auto &param : model->parameters())
      auto copy = param.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '.to(device)' is a blocking copy
}
