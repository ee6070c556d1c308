// A variable read after the code has settled its value: the assignment
// (or initialiser) before the read on every path decides where it lives,
// not every value it is ever given. Moved back to the host first, its
// reads wait for nothing; moved again, changed in the loop, in a branch,
// in a lambda or again after a goto, the reads are reported.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

float scores(torch::Tensor x, torch::Device device) {
  auto out = torch::softmax(x.to(device), 1);
  out = out.cpu();
  float total = 0;
  for (int i = 0; i < 10; ++i)
    total += out[i].max().item<float>();
  return total;
}

float settled_parameter(torch::Tensor boxes) {
  boxes = boxes.to(torch::kCPU);
  float area = 0;
  for (int i = 0; i < boxes.size(0); ++i) {
    auto box = boxes[i];
    area += (box[2] - box[0]).item<float>();
  }
  return area;
}

float moved_again(torch::Tensor x, torch::Device device) {
  auto out = x.cpu();
  out = out.to(device);
  float total = 0;
  for (int i = 0; i < 10; ++i)
    total += out[i].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.item()' copies the value to the host
  return total;
}

float changed_in_loop(torch::Tensor x, torch::Device device) {
  auto out = x.cpu();
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    total += out.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '.item()' copies the value to the host
    out = out.to(device) * 2;
  }
  return total;
}

float in_branch(torch::Tensor x, torch::Device device, bool keep) {
  auto out = x.to(device);
  if (keep)
    out = out.cpu();
  float total = 0;
  for (int i = 0; i < 10; ++i)
    total += out[i].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.item()' copies the value to the host
  return total;
}

float later_in_lambda(torch::Tensor x, torch::Device device) {
  auto out = x.cpu();
  auto read = [&] {
    float total = 0;
    for (int i = 0; i < 10; ++i)
      total += out[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: '.item()' copies the value to the host
    return total;
  };
  out = out.to(device);
  return read();
}

float across_goto(torch::Tensor x, torch::Device device, int tries) {
  auto out = x.to(device).cpu();
  float total = 0;
again:
  for (int i = 0; i < 10; ++i)
    total += out[i].item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.item()' copies the value to the host
  out = out.to(device);
  if (--tries > 0)
    goto again;
  return total;
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto x = torch::randn({10, 4});
  std::cout << scores(x, device) + settled_parameter(x.to(device)) + moved_again(x, device) +
                   changed_in_loop(x, device) + in_branch(x, device, true) +
                   later_in_lambda(x, device) + across_goto(x, device, 2);
}
