// A module built in the function that trains it, from nothing that names a
// device, and never moved or handed anywhere: its forward of host tensors
// gives host tensors, and reading them waits for no GPU, even in a program
// that uses CUDA elsewhere. Moved, handed on, loaded, or in a function that
// names a device: the reads are reported. A module moved to the CPU
// before its forward computes there too.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

struct Net : torch::nn::Module {
  Net() { register_module("fc", fc); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{5, 1};
};

struct TinyImpl : torch::nn::Module {
  TinyImpl(int in, int out) : fc(register_module("fc", torch::nn::Linear(in, out))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Tiny);

void cpu_training() {
  auto model = std::make_shared<Net>();
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto x = torch::randn({4, 5});
    auto loss = model->forward(x).sum();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    std::cout << loss.item<float>() << "\n";
  }
  Tiny tiny(5, 1);
  Net net;
  for (int i = 0; i < 3; ++i) {
    float a = tiny(torch::randn({2, 5})).sum().item<float>();
    float b = net.forward(torch::ones({2, 5})).sum().item<float>();
    std::cout << a + b;
  }
}

void moved(torch::Device device) {
  auto model = std::make_shared<Net>();
  model->to(device);
  for (int i = 0; i < 3; ++i)
    std::cout << model->forward(torch::randn({2, 5})).sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:61: warning: '.item()' copies the value to the host
}

void handed(std::shared_ptr<Net> &out) {
  auto model = std::make_shared<Net>();
  out = model;
  for (int i = 0; i < 3; ++i)
    std::cout << model->forward(torch::randn({2, 5})).sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:61: warning: '.item()' copies the value to the host
}

void loaded() {
  Tiny tiny(5, 1);
  torch::load(tiny, "tiny.pt");
  for (int i = 0; i < 3; ++i)
    std::cout << tiny(torch::randn({2, 5})).sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: '.item()' copies the value to the host
}

void place(torch::nn::Module *module);

void handed_out() {
  Tiny tiny(5, 1);
  place(tiny.get());
  for (int i = 0; i < 3; ++i)
    std::cout << tiny(torch::randn({2, 5})).sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: '.item()' copies the value to the host
}

// Moved to the CPU before its forward: its output is on the CPU whatever
// the caller hands it (an input elsewhere would fail against its parameters).
torch::Tensor classify(torch::Tensor image, Tiny model) {
  model->eval();
  model->to(torch::kCPU);
  image = image.unsqueeze(0);
  return torch::argmax(model(image));
}

void moved_to_cpu(Tiny &model, std::vector<torch::Tensor> &images) {
  for (auto &image : images)
    std::cout << classify(image, model).item<long>();
}

void moved_back(Tiny model, torch::Device device, std::vector<torch::Tensor> &images) {
  for (auto &image : images) {
    model->to(torch::kCPU);
    model->to(device);
    std::cout << model(image).sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: '.item()' copies the value to the host
  }
}

void moved_in_branch(Tiny model, bool cpu, std::vector<torch::Tensor> &images) {
  if (cpu)
    model->to(torch::kCPU);
  for (auto &image : images)
    std::cout << model(image).sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: '.item()' copies the value to the host
}

int main(int argc, char **) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  cpu_training();
  moved(device);
  std::shared_ptr<Net> out;
  handed(out);
  loaded();
  handed_out();
  Tiny tiny(5, 1);
  std::vector<torch::Tensor> images;
  moved_to_cpu(tiny, images);
  moved_back(tiny, device, images);
  moved_in_branch(tiny, argc > 1, images);
  return 0;
}
