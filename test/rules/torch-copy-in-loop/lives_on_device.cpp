// A tensor made on the device a copy targets copies nothing; a device
// carried by options, other.device() or a TensorOptions variable is a
// device like any other.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

torch::Tensor make_on(torch::Device d) { return torch::ones({2}, torch::TensorOptions().device(d)); }
torch::Tensor make_like(const torch::Tensor &ref) { return torch::zeros({2}, ref.options()); }
template <typename T> T make_tmpl(torch::Device d) { return torch::rand({2}, torch::device(d)); }
#define ON(dev) torch::TensorOptions().device(dev)

struct Trainer {
  torch::Device device_ = torch::kCPU;
  torch::Tensor fresh() { return torch::zeros({2}, torch::device(device_)); }
  void step(const torch::Tensor &batch) {
    for (int i = 0; i < 3; ++i) {
      auto t = fresh().to(device_);  // made on the object's device
      auto b = batch.to(device_);
      // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '.to(device)' copies 'batch', which is defined outside the loop
    }
  }
};

void already_there(torch::Device device, const torch::Tensor &on_device, std::vector<torch::Tensor> xs,
                   torch::TensorOptions unknown_opts) {
  auto opts = torch::TensorOptions().dtype(torch::kFloat).device(device);
  auto lambda = [&] { return torch::ones({2}, torch::device(device)); };
  for (size_t i = 0; i < xs.size(); ++i) {
    auto a = torch::zeros({2}, torch::TensorOptions().device(device)).to(device);
    auto b = torch::zeros({2}, opts);
    auto b2 = b.to(device);
    auto c = torch::zeros({2}, on_device.options()).to(on_device.device());
    auto e = make_on(device).to(device);
    auto f = make_tmpl<torch::Tensor>(device).to(device);
    auto g = torch::ones({2}, ON(device)).to(device);
    auto l = lambda().to(device);
    auto k = make_like(on_device).to(on_device.device());
    auto moved = xs[i].to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '.to(device)' is a blocking copy from host to device
    auto again = moved.to(device);                 // device to device: the earlier copy put it there
    auto half = moved.to(torch::kHalf).to(device); // a dtype change stays on the device
    auto u = xs[i].to(unknown_opts);               // options not known to name a device
  }
}

void other_device(torch::Device device, torch::Device other, const torch::Tensor &on_device,
                  std::vector<torch::Tensor> xs) {
  auto opts = torch::TensorOptions().device(device);
  auto dtype_only = torch::TensorOptions().dtype(torch::kFloat);
  auto t = torch::zeros({2}, torch::device(device));
  for (auto &x : xs) {
    // Made on another device: a copy between devices, not from the host.
    auto a = torch::zeros({2}, torch::device(other)).to(device);
    auto b = x.to(opts);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(device)' is a blocking copy
    auto c = x.to(on_device.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(device)' is a blocking copy
    auto d = x.to(on_device.options());
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(device)' is a blocking copy
    auto e = make_on(other).to(device);  // made on another device too
    auto f = x.to(dtype_only);  // no device: a dtype change
    t = x;                      // t changes in the loop: no longer known to be on the device
    auto g = t.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(device)' is a blocking copy
  }
}

#define TO_DEVICE(t, d) t = t.to(d)

torch::Tensor reads(torch::Tensor &m) { return m * 2; }  // a non-const reference left alone
void replaces(torch::Tensor &m) { m = torch::zeros({2}); }
void hands_on(torch::Tensor &m) { replaces(m); }

// v = v.to(d) in the loop: from the second iteration on v is on d already.
void moved_in_place(torch::Tensor memory, torch::Tensor state, torch::Tensor other,
                    torch::Tensor reset, const torch::Device &device, torch::Device per_step,
                    int steps) {
  torch::Tensor acc = torch::zeros({2});
  for (int i = 0; i < steps; ++i) {
    memory = memory.to(device);
    reads(memory);
    reset = reset.to(device);  // replaced through a reference below
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.to(device)' is a blocking copy
    hands_on(reset);
    TO_DEVICE(state, torch::kCUDA);
    acc = acc.to(device);  // given a host tensor again below
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: '.to(device)' is a blocking copy
    acc = torch::ones({2});
    torch::Tensor fresh = torch::ones({2});
    fresh = fresh.to(device);  // a new tensor on every iteration
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.to(device)' is a blocking copy
    per_step = i % 2 ? torch::kCPU : device;
    other = other.to(per_step);  // the device changes in the loop
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.to(device)' is a blocking copy
  }
}

// The program may run on a GPU (else the copy and sync checks have nothing to say).
torch::Device pick_device() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
