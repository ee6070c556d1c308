// A module made in the iteration that moves it (a model loaded per
// checkpoint, a copy made for each worker) is moved once in its life: no
// finding. One made before the loop, a copy of its holder (which shares the
// module) or a reference to an element of a container is still moved on
// every iteration.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

Net make_net() { return Net(); }

void evaluate(const std::vector<std::string> &paths, torch::Device device) {
  for (const std::string &path : paths) {
    auto model = make_net();
    torch::load(model, path);
    model->to(device);
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    Net model;
    model->to(device);
  }
}

struct Workers {
  void spawn(int n, torch::Device device) {
    copies.clear();
    for (int i = 0; i < n; ++i) {
      copies.push_back(Net());
      copies.back()->to(device);
    }
  }
  std::vector<Net> copies;
};

void still_moved(Net shared, std::vector<Net> &nets, torch::Device device) {
  Net before;
  for (int step = 0; step < 10; ++step) {
    before->to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: '->to()' on a module copies every parameter
    Net alias = shared;
    alias->to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '->to()' on a module copies every parameter
    Net &first = nets[0];
    first->to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '->to()' on a module copies every parameter
    nets.push_back(shared);
    nets.back()->to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: '->to()' on a module copies every parameter
  }
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  evaluate({"a.pt", "b.pt"}, device);
  Workers w;
  w.spawn(4, device);
  std::vector<Net> nets(1);
  still_moved(Net(), nets, device);
}
