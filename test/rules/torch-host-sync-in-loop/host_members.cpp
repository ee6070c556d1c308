// Members of records: what an aggregate's initialiser, a constructor that
// stores its argument, or LibTorch's Example(data, target) put in a member
// is what the member holds, through returns and locals. Reads of members
// made on the host wait for no GPU; members that are given a device tensor,
// or that may change unseen, are still reported.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Pair {
  torch::Tensor img;
  torch::Tensor label;
};

struct Sample {
  Sample(torch::Tensor img, torch::Tensor label) : img{img}, label(std::move(label)) {}
  torch::Tensor img;
  torch::Tensor label;
};

struct Resized {
  Resized(torch::Tensor img) : img(img) { this->img = this->img.cuda(); }
  torch::Tensor img;
};

void touch(Sample &s);

Pair hostPair(int i) { return {torch::ones({2}) * i, torch::zeros({1})}; }
Sample hostSample(int i) { return Sample(torch::ones({2}), torch::full({1}, i)); }
torch::data::Example<> hostExample(int i) { return {torch::ones({2}), torch::full({1}, i)}; }
Sample mixed(torch::Device d) { return Sample(torch::ones({2}).to(d), torch::zeros({1})); }
auto either(bool b, torch::Device d) { return b ? hostSample(1) : mixed(d); }

float run(int n) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  float total = 0;
  for (int i = 0; i < n; ++i) {
    total += hostPair(i).img.sum().item<float>();
    auto s = hostSample(i);
    total += s.label.item<float>() + hostExample(i).target.item<float>();
    Sample moved = hostSample(i);
    moved.label = moved.label.to(device);
    total += moved.label.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.item()' copies the value to the host
    total += moved.img.sum().item<float>();  // only the label was moved
    auto e = hostExample(i);
    total += e.data.sum().item<float>();
    total += mixed(device).img.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '.item()' copies the value to the host
    total += mixed(device).label.item<float>();
    total += either(i > 2, device).label.item<float>();
    total += either(i > 2, device).img.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: '.item()' copies the value to the host
    total += Resized(torch::ones({1})).img.item<float>();  // its constructor moves it
    // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: '.item()' copies the value to the host
    Sample passed = hostSample(i);
    touch(passed);
    total += passed.label.item<float>();  // may change unseen
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '.item()' copies the value to the host
    Sample bound = hostSample(i);
    torch::Tensor &alias = bound.img;
    alias = alias.to(device);
    total += bound.img.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: '.item()' copies the value to the host
  }
  return total;
}
