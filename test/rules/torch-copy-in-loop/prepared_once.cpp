// A loop that keeps each iteration's copy in a container declared before
// it and returned (out.push_back(w.cuda()); return out;), or moves the
// modules such a container holds, prepares device data once, when the
// loop is in no other and its function is
// called, only outside loops: no finding. The same loop in a function
// called per batch (in a loop, or in a lambda std::for_each calls), one in
// another loop, a copy that is not kept or kept in a container the call
// uses up, or one module moved on every iteration is still reported. A
// function this program (it has a main()) never calls runs in none of it.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Head {
  template <typename M> explicit Head(M m) : module(m) {}
  torch::nn::AnyModule module;
};

std::vector<torch::Tensor> class_weights(const std::vector<torch::Tensor> &labels) {
  std::vector<torch::Tensor> out;
  for (size_t i = 0; i < labels.size(); i++)
    out.push_back((labels[i].sum() / 2).cuda().unsqueeze(0));
  return out;
}

std::vector<Head> heads(int n, torch::Device device) {
  std::vector<Head> out;
  for (int i = 0; i < n; i++) {
    out.push_back(Head(torch::nn::Linear(2, 2)));
    out.back().module.ptr()->to(device);
  }
  return out;
}

std::vector<torch::nn::Linear> layers(int n, torch::Device device) {
  std::vector<torch::nn::Linear> out;
  for (int i = 0; i < n; i++)
    out.emplace_back(2, 2);
  for (auto &layer : out)
    layer->to(device);
  return out;
}

// Used up in the call (torch::cat): work of every call, wherever it is called.
torch::Tensor level_ids(const std::vector<torch::Tensor> &levels, torch::Device device) {
  std::vector<torch::Tensor> ids;
  for (size_t i = 0; i < levels.size(); i++)
    ids.push_back(torch::full({levels[i].size(0)}, static_cast<int64_t>(i)).to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:77: warning: '.to(device)' is a blocking copy from host to device
  return torch::cat(ids);
}

std::vector<torch::Tensor> collate(const std::vector<torch::Tensor> &examples, torch::Device d) {
  std::vector<torch::Tensor> out;
  for (const auto &e : examples)
    out.push_back(e.to(d));
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.to(device)' is a blocking copy from host to device
  return out;
}

std::vector<torch::Tensor> per_example(const std::vector<torch::Tensor> &examples) {
  std::vector<torch::Tensor> out;
  for (const auto &e : examples)
    out.push_back(e.cuda());
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.cuda()' is a blocking copy from host to device
  return out;
}

std::vector<torch::Tensor> never_called(const std::vector<torch::Tensor> &examples) {
  std::vector<torch::Tensor> out;
  for (const auto &e : examples)
    out.push_back(e.cuda());
  return out;
}

float train(const std::vector<std::vector<torch::Tensor>> &batches, torch::Device device) {
  torch::nn::Linear model(2, 2);
  float total = 0;
  for (const auto &batch : batches) {
    auto inputs = collate(batch, device);
    std::vector<torch::Tensor> kept;
    for (const auto &x : batch)
      kept.push_back(x.to(device));
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: '.to(device)' is a blocking copy from host to device
    total += inputs.size() + kept.size();
  }
  return total;
}

void setup(const std::vector<torch::Tensor> &xs, torch::nn::Linear model, torch::Device device) {
  for (const auto &x : xs) {
    model->to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '->to()' on a module copies every parameter and buffer to the device on every iteration
    auto y = x.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(device)' is a blocking copy from host to device
    model(y);
  }
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::vector<torch::Tensor> labels{torch::ones({2})};
  auto weights = class_weights(labels);
  auto hs = heads(2, device);
  auto ls = layers(2, device);
  auto ids = level_ids(labels, device);
  std::vector<std::vector<torch::Tensor>> batches{labels};
  std::for_each(batches.begin(), batches.end(), [](const auto &b) { per_example(b); });
  setup(labels, torch::nn::Linear(2, 2), device);
  return static_cast<int>(train({labels}, device) + weights.size() + hs.size());
}
