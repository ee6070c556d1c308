// RUN: not %torchtidy --quiet --checks='-*,torch-loss-accumulation-graph' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
// The fix-its, applied to a copy, and the copy still compiles:
// RUN: cp %s %t.cpp && %expect_exit 1 %torchtidy --quiet --fix --checks='-*,torch-loss-accumulation-graph' %t.cpp -- %torch_flags > /dev/null
// RUN: FileCheck %s -check-prefix=CHECK-FIXES --match-full-lines < %t.cpp
// RUN: clang++-19 -fsyntax-only %torch_flags %t.cpp
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
};
TORCH_MODULE(Net);

#define ACCUMULATE(t, v) t += v

using Batches = std::vector<std::pair<torch::Tensor, torch::Tensor>>;

void compound(Net model, torch::optim::SGD &opt, Batches &data) {
  torch::Tensor total_loss = torch::zeros({});
  for (auto &[x, y] : data) {
    opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    opt.step();
    total_loss += loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total_loss' accumulates 'loss', which is part of the autograd graph, on every iteration: the sum keeps every iteration's graph alive and memory grows; accumulate 'loss' with '.detach()', or its value with '.item<float>()' [torch-loss-accumulation-graph]
    // CHECK-MESSAGES: :[[@LINE-7]]:3: note: in this loop
    // CHECK-MESSAGES: :[[@LINE-9]]:17: note: 'total_loss' is declared outside the loop here
    // CHECK-FIXES: {{^}}    total_loss += loss.detach();{{$}}
  }
  std::cout << total_loss.item<float>() << "\n";
}

void self_sum(Net model, Batches &data) {
  auto total = torch::zeros({1});
  for (auto &[x, y] : data) {
    auto loss = torch::nll_loss(model->forward(x), y);
    total = total + loss;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' accumulates 'loss', which
    // CHECK-FIXES: {{^}}    total = total + loss.detach();{{$}}
  }
}

void in_place(Net model, Batches &data) {
  torch::Tensor sum = torch::zeros({});
  for (size_t i = 0; i < data.size(); ++i) {
    torch::Tensor out = model->forward(data[i].first);
    sum.add_(out.sum());
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'sum' accumulates 'out.sum()', which
    // CHECK-FIXES: {{^}}    sum.add_(out.sum().detach());{{$}}
  }
}

void torch_add(Net model, torch::nn::MSELoss criterion, Batches &data) {
  torch::Tensor running = torch::zeros({});
  int i = 0;
  while (i < 4) {
    running = torch::add(running, criterion(model(data[i].first), data[i].second));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'running' accumulates the value, which
    // CHECK-FIXES: {{^}}    running = torch::add(running, criterion(model(data[i].first), data[i].second).detach());{{$}}
    ++i;
  }
}

void subtract_criterion(Net model, torch::nn::MSELoss criterion, Batches &data) {
  torch::Tensor score = torch::zeros({});
  for (auto &[x, y] : data)
    score -= criterion(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'score' accumulates 'criterion(model->forward(x), y)', which
  // CHECK-FIXES: {{^}}    score -= criterion(model->forward(x), y).detach();{{$}}
}

void through_locals(Net model, Batches &data) {
  torch::Tensor total = torch::zeros({});
  for (auto &[x, y] : data) {
    auto out = model->forward(x);
    auto err = (out - y).pow(2).mean();
    total += err * 2;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' accumulates 'err * 2', which
    // CHECK-FIXES: {{^}}    total += err * 2;{{$}}
  }
}

void through_macro(Net model, Batches &data) {
  torch::Tensor total = torch::zeros({});
  for (auto &[x, y] : data) {
    auto loss = torch::l1_loss(model->forward(x), y);
    ACCUMULATE(total, loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'total' accumulates 'loss', which
    // CHECK-FIXES: {{^}}    ACCUMULATE(total, loss);{{$}}
  }
}

template <typename M> void templated(M &model, Batches &data) {
  torch::Tensor total = torch::zeros({});
  for (auto &[x, y] : data)
    total += model->forward(x).sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' accumulates 'model->forward(x).sum()', which
  std::cout << total << "\n";
}
template void templated<Net>(Net &, Batches &);

void in_lambda(Net model, Batches &data) {
  auto run = [&] {
    torch::Tensor total = torch::zeros({});
    for (auto &[x, y] : data) {
      auto loss = torch::nn::functional::cross_entropy(model->forward(x), y);
      total += loss;
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'total' accumulates 'loss', which
      // CHECK-FIXES: {{^}}      total += loss.detach();{{$}}
    }
  };
  run();
}

// An evaluation loop without a guard keeps the graphs too.
float eval_loss(Net model, Batches &data) {
  torch::Tensor total = torch::zeros({});
  for (auto &[x, y] : data)
    total += torch::mse_loss(model->forward(x), y);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'total' accumulates 'torch::mse_loss(model->forward(x), y)', which
  return total.item<float>();
}

// Backward from the loss in the loop is the proof that it is part of a graph.
void backward_proof(torch::Tensor w, std::vector<torch::Tensor> &xs) {
  torch::Tensor seen = torch::zeros({});
  for (auto &x : xs) {
    torch::Tensor l = (w * x).sum();
    l.backward();
    seen += l;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'seen' accumulates 'l', which
    // CHECK-FIXES: {{^}}    seen += l.detach();{{$}}
  }
}
