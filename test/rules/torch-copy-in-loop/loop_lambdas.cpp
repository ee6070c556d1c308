// A lambda kept in a variable of a loop's body and called there, taking no
// more than numbers (a minibatch step), is the loop's own code: each copy in
// it is reported where it is written, with the call as a note. One defined
// outside the loop is a helper: reported at the call.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

void learn(const torch::Tensor &states, const torch::Tensor &actions, int epochs, int size) {
  auto states_host = states.cpu();
  auto actions_host = actions.cpu();
  for (int epoch = 0; epoch < epochs; ++epoch) {
    auto run_minibatch = [&](int start, int stop) {
      auto s = states_host.slice(0, start, stop).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: '.to(device)' is a blocking copy from host to device, on every iteration
      // CHECK-MESSAGES: :[[@LINE+8]]:7: note: 'run_minibatch', defined in the loop, is called here
      // CHECK-MESSAGES: :[[@LINE+6]]:5: note: in this loop
      auto a = actions_host.slice(0, start, stop).to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:51: warning: '.to(device)' is a blocking copy from host to device, on every iteration
      // CHECK-MESSAGES: :[[@LINE+4]]:7: note: 'run_minibatch', defined in the loop, is called here
      (s * a).sum().backward();
    };
    for (int start = 0; start < size; start += 64)
      run_minibatch(start, start + 64);
  }
  auto whole = [&] { return states_host.to(device); };
  for (int epoch = 0; epoch < epochs; ++epoch)
    whole().sum().backward();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'whole' runs '.to(device)'
}
