// A container of records (std::vector<Batch>, a loader's private batches
// returned by a const accessor) holds in each record's member what every
// record put into it holds there: batches made on the device are copied
// nothing by .to(device), read through an element, a reference to one or a
// range-for. A container with one record of a host member, one whose
// element's member is given a host tensor, and a container parameter are
// still reported.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Batch {
  torch::Tensor inputs;
  torch::Tensor targets;
};

class Loader {
public:
  Loader(int n, torch::Device device) {
    for (int i = 0; i < n; ++i) {
      torch::Tensor x = torch::randn({4, 8}, device);
      torch::Tensor y = torch::randn({4}, device) * 2;
      batches_.push_back({x, y});
    }
  }
  const std::vector<Batch> &batches() const { return batches_; }

private:
  std::vector<Batch> batches_;
};

Batch make_batch(torch::Device device) {
  Batch b;
  b.inputs = torch::randn({4, 8}, device);
  b.targets = torch::randn({4}, device);
  return b;
}

torch::Tensor loss_of(const torch::Tensor &input, const torch::Tensor &target) {
  return (input.sum(1) - target.to(input.device())).pow(2).mean();
}

void train(const Loader &loader, torch::Device device, std::vector<Batch> &given) {
  std::vector<Batch> made;
  for (int i = 0; i < 4; ++i)
    made.push_back(make_batch(device));
  std::vector<Batch> mixed = made;
  mixed.push_back({torch::randn({4, 8}), torch::randn({4})});
  std::vector<Batch> changed = made;
  changed[0].targets = torch::randn({4});
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (const auto &batch : loader.batches())
      loss_of(batch.inputs, batch.targets).backward();
    for (size_t i = 0; i < made.size(); ++i) {
      auto &b = made[i];
      torch::Tensor t = b.targets.to(device);
      loss_of(made[i].inputs, t).backward();
    }
    for (size_t i = 0; i < mixed.size(); ++i)
      torch::Tensor t = mixed[i].targets.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: '.to(device)' is a blocking copy from host to device
    for (const Batch &b : changed)
      loss_of(b.inputs, b.targets).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: call to 'loss_of' runs '.to(device)'
    for (const Batch &b : given)
      loss_of(b.inputs, b.targets).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: call to 'loss_of' runs '.to(device)'
  }
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Loader loader(8, device);
  std::vector<Batch> given{make_batch(device)};
  train(loader, device, given);
}
