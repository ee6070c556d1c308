// A helper that copies its tensor parameter to the device (target.to(
// out.device())) copies nothing for a caller whose argument is on the
// device already: no finding at that call, also through another helper
// that passes its own parameter on. A call passing a host tensor is
// reported, and so is one passing a tensor of unknown place.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

torch::Tensor loss_of(torch::nn::Linear &model, const torch::Tensor &input,
                      const torch::Tensor &target) {
  auto out = model(input);
  return torch::mse_loss(out, target.to(out.device()));
}

torch::Tensor loss_through(torch::nn::Linear &model, const torch::Tensor &input,
                           const torch::Tensor &target) {
  return loss_of(model, input, target);
}

// Defined in a file not analysed: where its tensor lives is unknown.
torch::Tensor fetch_target();

void train(torch::nn::Linear &model, torch::Device device) {
  torch::Tensor x = torch::randn({8, 4}, device);
  torch::Tensor y = torch::randn({8, 2}).to(device);
  torch::Tensor host_y = torch::randn({8, 2});
  for (int step = 0; step < 10; ++step) {
    loss_of(model, x, y).backward();
    loss_through(model, x, y).backward();
    loss_of(model, x, host_y).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'loss_of' runs '.to(device)', which is a blocking copy from host to device
    loss_through(model, x, host_y).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'loss_through' runs '.to(device)'
    loss_of(model, x, fetch_target()).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'loss_of' runs '.to(device)'
  }
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear model(4, 2);
  model->to(device);
  train(model, device);
}
