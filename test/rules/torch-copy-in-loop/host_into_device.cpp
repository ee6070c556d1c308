// Host data written into a tensor put on a device, on every iteration: each
// write is a blocking host-to-device copy. Not when the destination or the
// source is not provably where that needs.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Controller {
  static torch::TensorOptions getTensorOptions();
};
#define ROW(t, i) t[i]

void batch(torch::Device device, torch::Tensor states, torch::Tensor param) {
  auto host = torch::cat({states}).to(torch::kCPU);
  auto rows = torch::rand({8, 4});
  torch::Tensor mini;
  for (int e = 0; e < 3; ++e) {
    mini = torch::zeros({8, 4}, Controller::getTensorOptions());
    auto dev = torch::zeros({8, 4}, torch::TensorOptions().device(device));
    auto cuda = torch::empty({8, 4}).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: '.cuda()' is a blocking copy from host to device, on every iteration
    auto cpu_dst = torch::zeros({8, 4});
    for (int b = 0; b < 8; ++b) {
      mini[b] = host[b];
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: assigning a host tensor into a device tensor is a blocking copy from host to device, on every iteration
      dev[b] = ROW(rows, b);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: assigning a host tensor into a device tensor
      cuda.select(0, b).copy_(rows[b]);
      // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '.copy_()' of a host tensor into a device tensor is a blocking copy
      dev.index_put_({b}, rows[b] * 2);
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '.index_put_()' of a host tensor into a device tensor
      auto put = [&](int i) { dev[i] = rows[i]; };  // the loop's own code, called below
      // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: assigning a host tensor into a device tensor is a blocking copy
      put(b);
      cpu_dst[b] = rows[b];           // host to host
      dev[b] = dev[(b + 1) % 8];      // device to device
      dev[b] = param[b];              // source not known to be on the host
      states[b] = rows[b];            // destination not known to be on a device
      dev[b] = rows[b].pin_memory();  // pinned: may run asynchronously
    }
  }
}
