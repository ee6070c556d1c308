// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

// A branch that a constant condition never takes never runs: debug
// output behind '#define DEBUG 0' (or a constexpr flag) reads nothing,
// in the loop, in a loop of its own or in a helper the loop calls.
#define DEBUG 0
constexpr bool kVerbose = false;
bool verbose = false;

torch::Tensor bundle(const torch::Tensor &cam) {
  if (DEBUG) std::cout << "cam = " << cam << "\n";
  return cam * 2;
}

float measure(const torch::Tensor &cam) {
  if (!DEBUG)
    return cam.sum().item<float>();
  return 0;
}

void render(torch::Device device, int frames) {
  auto cam = torch::ones({4, 4}).to(device);
  float total = 0;
  for (int frame = 0; frame < frames; ++frame) {
    auto out = bundle(cam);
    if (DEBUG) std::cout << out << "\n";
    if (kVerbose) {
      for (int i = 0; i < 4; ++i)
        total += out[i].sum().item<float>();
    } else {
      total += 1;
    }
    total += DEBUG ? out.sum().item<float>() : 0.f;
    if (!DEBUG)
      total += out.mean().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '.item()' copies the value to the host
    if (verbose)
      std::cout << out << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: streaming a tensor with '<<' copies it to the host
    total += measure(out);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'measure' runs '.item()'
  }
  std::cout << total << "\n";
}

int main() { render(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU, 4); }
