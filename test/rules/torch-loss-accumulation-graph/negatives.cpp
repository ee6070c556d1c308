// RUN: %torchtidy --quiet --checks='-*,torch-loss-accumulation-graph' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
};
TORCH_MODULE(Net);

using Batches = std::vector<std::pair<torch::Tensor, torch::Tensor>>;

void detached(Net model, Batches &data) {
  torch::Tensor total = torch::zeros({});
  for (auto &[x, y] : data) {
    auto loss = torch::mse_loss(model->forward(x), y);
    total += loss.detach();
    total = total + loss.detach() * 2;
    total.add_(loss.data());
  }
}

void item_values(Net model, Batches &data) {
  torch::Tensor total = torch::zeros({});
  float f = 0;
  for (auto &[x, y] : data) {
    auto loss = torch::mse_loss(model->forward(x), y);
    total += loss.item<float>();  // a Scalar: no graph
    f += loss.item<float>();
  }
}

void no_grad(Net model, Batches &data) {
  torch::NoGradGuard no_grad;
  torch::Tensor total = torch::zeros({});
  for (auto &[x, y] : data)
    total += torch::mse_loss(model->forward(x), y);
}

void declared_in_loop(Net model, Batches &data) {
  for (auto &[x, y] : data) {
    torch::Tensor total = torch::zeros({});
    total += torch::mse_loss(model->forward(x), y);
  }
}

// The graph is kept on purpose: one backward over the summed chunks.
void summed_then_backward(Net model, Batches &data) {
  torch::Tensor total = torch::zeros({});
  for (auto &[x, y] : data)
    total += torch::mse_loss(model->forward(x), y);
  total.backward();
}
void mean_then_backward(Net model, Batches &data) {
  torch::Tensor total = torch::zeros({});
  for (auto &[x, y] : data)
    total = total + torch::mse_loss(model->forward(x), y);
  auto mean = total / static_cast<double>(data.size());
  mean.backward();
}
void autograd_backward(Net model, Batches &data) {
  torch::Tensor total = torch::zeros({});
  for (auto &[x, y] : data)
    total.add_(torch::mse_loss(model->forward(x), y));
  torch::autograd::backward({total});
}
torch::Tensor returned(Net model, Batches &data) {
  torch::Tensor total = torch::zeros({});
  for (auto &[x, y] : data)
    total += torch::mse_loss(model->forward(x), y);
  return total;
}

// Nothing shows that the values are part of a graph.
void plain_data(std::vector<torch::Tensor> &xs) {
  torch::Tensor total = torch::zeros({});
  for (auto &x : xs) {
    auto doubled = x * 2;
    total += doubled;
    total = total + x.sum();
  }
}

// The caller owns the sum (and may call backward on it).
void into_parameter(Net model, Batches &data, torch::Tensor &total) {
  for (auto &[x, y] : data)
    total += torch::mse_loss(model->forward(x), y);
}

void no_loop(Net model, torch::Tensor x, torch::Tensor y) {
  torch::Tensor total = torch::zeros({});
  total += torch::mse_loss(model->forward(x), y);
}

// Replaced every iteration, not accumulated.
void replaced(Net model, Batches &data) {
  torch::Tensor last = torch::zeros({});
  torch::Tensor base = torch::ones({});
  for (auto &[x, y] : data)
    last = base + torch::mse_loss(model->forward(x), y);
}

// Not a tensor: a user type with operator+=.
struct Meter {
  Meter &operator+=(const torch::Tensor &) { return *this; }
};
void meter(Net model, Batches &data) {
  Meter m;
  for (auto &[x, y] : data)
    m += torch::mse_loss(model->forward(x), y);
}
// CHECK-MESSAGES-NOT: warning:
