// A tensor returned inside a tuple and unpacked with std::tie keeps the
// device it was made on: element I of the returned tuple ({a, b},
// std::make_tuple, std::make_pair; a structured binding) is followed, and a variable given new
// values lives where all of them agree. A device held through a pointer
// (std::shared_ptr<torch::Device>) is one device like a device variable.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <memory>
#include <tuple>

template <typename T> std::tuple<T, T> twice(const T &x) { return std::make_tuple(x, x); }
#define UNPACK(a, b, call) std::tie(a, b) = call

struct Runner {
  std::shared_ptr<torch::Device> device = std::make_shared<torch::Device>(
      torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  int envs = 4;

  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> step() {
    torch::Tensor obs = torch::zeros({envs, 3}, torch::TensorOptions(*device).dtype(torch::kFloat32));
    torch::Tensor reward = torch::zeros({envs, 1}, torch::TensorOptions(*device));
    torch::Tensor host = torch::zeros({envs, 1});
    return {obs, reward, host};
  }

  std::pair<torch::Tensor, torch::Tensor> pair() {
    auto on = torch::ones({envs}, torch::TensorOptions(*device));
    return std::make_pair(on, torch::ones({envs}));
  }

  void rollout() {
    torch::Tensor next_obs = torch::Tensor();
    torch::Tensor reward, host;
    for (int i = 0; i < 8; ++i) {
      std::tie(next_obs, reward, host) = step();
      auto r = reward.to(*device).view(-1);
      next_obs = next_obs.to(*device);
      auto h = host.to(*device);
      // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.to(device)' is a blocking copy from host to device
      torch::Tensor a, b;
      std::tie(a, b) = pair();
      auto a_moved = a.to(*device);
      auto b_moved = b.to(*device);
      // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '.to(device)' is a blocking copy from host to device
      // Structured bindings.
      auto [o, rw, hs] = step();
      auto o_moved = o.to(*device);
      auto hs_moved = hs.to(*device);
      // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.to(device)' is a blocking copy from host to device
      // Through a template, a macro and auto.
      auto made = torch::ones({2}, torch::TensorOptions(*device));
      torch::Tensor c, d, e, f;
      UNPACK(c, d, twice(made));
      auto twice_moved = d.to(*device);
      UNPACK(e, f, twice(torch::ones({2})));
      auto host_twice = e.to(*device);
      // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '.to(device)' is a blocking copy from host to device
    }
  }
};

// A variable given a host value on one path and a device value on another
// is not proved on the device (values are not followed path by path).
void mixed(torch::Device device, bool flag) {
  torch::Tensor x = torch::zeros({2}, torch::TensorOptions().device(device));
  for (int i = 0; i < 3; ++i) {
    if (flag)
      x = torch::ones({2});
    auto y = x.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(device)' is a blocking copy from host to device
  }
}
