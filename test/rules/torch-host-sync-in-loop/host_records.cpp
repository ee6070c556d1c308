// A standard container of records holds in each record's member what every
// record put into it holds there: reading a label of samples made on the
// host waits for no GPU. A container that also gets a record with a label
// put on the device is still reported.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Sample {
  torch::Tensor image;
  torch::Tensor label;
};

Sample load(int i) { return {torch::rand({3, 8, 8}), torch::tensor(i % 10)}; }

float count(torch::Device device) {
  std::vector<Sample> samples;
  for (int i = 0; i < 16; ++i)
    samples.push_back(load(i));
  std::vector<Sample> moved = samples;
  moved.push_back({torch::rand({3, 8, 8}, device), torch::tensor(3).to(device)});
  float total = 0;
  for (size_t i = 0; i < samples.size(); ++i)
    total += samples[i].label.item<float>();
  for (const Sample &s : moved)
    total += s.label.item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '.item()' copies the value to the host
  return total;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  return count(device) > 0;
}
