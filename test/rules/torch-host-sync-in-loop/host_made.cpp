// Tensors made on the host: a factory without a device, ops and views of
// host tensors only, a helper of this file returning one. Reads from them
// wait for no GPU; the same reads from anything else still do.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#define ANGLES torch::linspace(0, 1, 8)
torch::Tensor host_table() { return torch::arange(8).to(torch::kFloat); }
torch::Tensor device_table(torch::Device d) { return torch::arange(8, d); }
torch::Tensor either(bool b, torch::Tensor t) { return b ? host_table() : t; }
template <typename T> T first(const T &t) { return t[0]; }

float run(torch::Tensor param, torch::TensorOptions opts) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const auto angles = torch::linspace(0, 1, 8);
  auto grid = torch::zeros({8}, torch::kFloat);
  auto both = torch::cat({angles, grid.view({8})}, 0);
  auto moved = torch::ones({8}).to(device);
  auto replaced = torch::zeros({8});
  replaced = replaced.to(device);
  float total = 0;
  for (int i = 0; i < 8; ++i) {
    auto c = torch::cos(angles[i]);
    total += c.item<float>() + torch::sin(angles[i] * 2).item<float>();
    total += both.select(0, i).item<float>() + ANGLES[i].item<float>();
    total += host_table()[i].item<float>();
    auto lambda = [] { return torch::eye(2); };
    total += lambda().sum().item<float>();
    total += first(angles).item<float>();  // every call of the helper passes a host tensor
    total += (angles + moved)[i].item<float>();  // mixes in a device tensor
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: '.item()' copies the value to the host
    total += replaced[i].item<float>();  // assigned a device tensor
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.item()' copies the value to the host
    total += torch::zeros({1}, device).item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '.item()' copies the value to the host
    total += torch::zeros({1}, opts).item<float>();  // options the code does not show
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '.item()' copies the value to the host
    total += torch::cos(param).item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: '.item()' copies the value to the host
    total += device_table(device)[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '.item()' copies the value to the host
    total += either(i > 2, param).sum().item<float>();  // one return is not on the host
    // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: '.item()' copies the value to the host
    std::vector<torch::Tensor> parts{angles};
    total += torch::cat(parts)[i].item<float>();  // a container of host tensors (host_containers.cpp)
  }
  return total;
}

// Host results gathered across iterations: the variable holds what its
// other values put there.
float gather(torch::Tensor out, torch::TensorOptions opts) {
  torch::Tensor acc;
  torch::Tensor moved = torch::zeros({1});
  float total = 0;
  for (int i = 0; i < 4; ++i) {
    if (i == 0)
      acc = out.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: '.cpu()' copies the tensor to the host
    else
      acc = torch::cat({acc, out.detach().cpu()}, 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: '.cpu()' copies the tensor to the host
    total += acc[i].item<float>();
    moved = moved.to(opts);  // options the code does not show
    total += moved.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.item()' copies the value to the host
  }
  return total;
}

// Filled through reference parameters by helpers that only assign them:
// the variable holds what the helper assigns (or what it held).
void fill_host(torch::Tensor &input, torch::Tensor &target) {
  input = torch::zeros({4});
  target = torch::cat({torch::ones({3}), torch::zeros({1})});
}
void fill_on(torch::Tensor &out, torch::Device d) { out = torch::zeros({4}, d); }
void fill_and_move(torch::Tensor &out, torch::Device d) {
  out = torch::zeros({4});
  out = out.to(d);
}

void filled(torch::Device d) {
  auto inputs = torch::zeros({10, 4});
  for (int i = 0; i < 10; ++i) {
    torch::Tensor input = torch::zeros({4}), target = torch::zeros({4});
    fill_host(input, target);
    inputs[i] = input.clone();
    inputs[i] = target;
    torch::Tensor there = torch::zeros({4});
    fill_on(there, d);
    inputs[i] = there;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: assigning a tensor into a CPU tensor copies the tensor to the host
    torch::Tensor moved = torch::zeros({4});
    fill_and_move(moved, d);
    inputs[i] = moved;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: assigning a tensor into a CPU tensor copies the tensor to the host
  }
}

// A checkpoint of the value itself (saved and loaded by the same code)
// brings back a tensor it held, on that tensor's device; a load alone may
// bring back anything.
class Agent {
public:
  Agent() : scale_(torch::ones({1})), bias_(torch::zeros({1})) {}
  void save() const { torch::save(scale_, "scale.pt"); }
  void restore() {
    torch::load(scale_, "scale.pt");
    torch::load(bias_, "bias.pt");
  }
  float sum(int n) const {
    float total = 0;
    for (int i = 0; i < n; ++i) {
      total += scale_.item<float>();
      total += bias_.item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '.item()' copies the value to the host
    }
    return total;
  }

private:
  torch::Tensor scale_, bias_;
};

float checkpoints() {
  auto kept = torch::zeros({4}), loaded = torch::zeros({4});
  torch::save(kept, "kept.pt");
  torch::load(kept, "kept.pt");
  torch::load(loaded, "other.pt");
  float total = 0;
  for (int i = 0; i < 4; ++i) {
    total += kept[i].item<float>();
    total += loaded[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '.item()' copies the value to the host
  }
  return total;
}
