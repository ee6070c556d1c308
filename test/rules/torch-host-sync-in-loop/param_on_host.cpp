// A helper that reads its own tensor parameter back (t.cpu(), t[i].item())
// waits for nothing at a call whose argument is on the host already: no
// finding there, also when the helper reassigns the parameter after reading
// it (t = t.cpu()), or hands it on to another helper. A call passing a
// device tensor is reported, and so is one passing a tensor of unknown place.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

std::vector<float> to_list(torch::Tensor t) {
  t = t.cpu().to(torch::kFloat32);
  float *data = t.data_ptr<float>();
  return std::vector<float>(data, data + t.size(0));
}

float first_of(const torch::Tensor &t) { return t[0].item<float>(); }

std::vector<float> through(const torch::Tensor &t) { return to_list(t); }

// Reads a value only after the parameter was given another one.
float after_reassign(torch::Tensor t, torch::Device device) {
  t = t.to(device);
  return t.sum().item<float>();
}

// Defined in a file not analysed: where its tensor lives is unknown.
torch::Tensor fetch();

void run(torch::nn::Linear &model, torch::Device device) {
  for (int step = 0; step < 10; ++step) {
    auto values = torch::zeros({8});
    auto list = to_list(values);
    auto head = first_of(values);
    auto again = through(values);
    auto out = model(torch::randn({8, 4}, device));
    auto moved = to_list(out.flatten());
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: call to 'to_list' runs '.cpu()'
    auto handed = through(out.flatten());
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: call to 'through' runs '.cpu()'
    auto unknown = first_of(fetch());
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: call to 'first_of' runs '.item()'
    auto last = after_reassign(values, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: call to 'after_reassign' runs '.item()'
  }
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear model(4, 2);
  model->to(device);
  run(model, device);
}
