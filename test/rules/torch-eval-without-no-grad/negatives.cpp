// RUN: %torchtidy --quiet --checks='-*,torch-eval-without-no-grad' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
};
TORCH_MODULE(Net);

// Not LibTorch's: a class of the same shape.
struct Lookalike {
  void eval() {}
  torch::Tensor forward(torch::Tensor x) { return x; }
};

void guard_before_loop(Net model, std::vector<torch::Tensor> &xs) {
  torch::NoGradGuard no_grad;
  model->eval();
  for (auto &x : xs)
    model->forward(x);
}

void guard_in_body(Net model, std::vector<torch::Tensor> &xs) {
  model->eval();
  for (auto &x : xs) {
    torch::NoGradGuard no_grad;
    model->forward(x);
  }
}

void inference_mode(Net model, std::vector<torch::Tensor> &xs) {
  model->eval();
  c10::InferenceMode guard;
  for (auto &x : xs)
    model->forward(x);
}

void autograd_mode_off(Net model, std::vector<torch::Tensor> &xs) {
  model->eval();
  torch::AutoGradMode off(false);
  for (auto &x : xs)
    model->forward(x);
}

void set_enabled_off(Net model, std::vector<torch::Tensor> &xs) {
  model->eval();
  torch::GradMode::set_enabled(false);
  for (auto &x : xs)
    model->forward(x);
  torch::GradMode::set_enabled(true);
}

// Loops that call backward() or step() need the graph.
void test_with_backward(Net model, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs)
    model->forward(x).sum().backward();
}
void apply(torch::optim::SGD &opt) { opt.step(); }
void evaluate_and_tune(Net model, torch::optim::SGD &opt, std::vector<torch::Tensor> &xs) {
  model->eval();
  for (auto &x : xs) {
    auto loss = model->forward(x).sum();
    torch::autograd::backward({loss});
    apply(opt);
  }
}
// Backward after the inner loop over time steps, in the outer loop.
void validate_bptt(Net model, std::vector<std::vector<torch::Tensor>> &seqs) {
  for (auto &seq : seqs) {
    torch::Tensor loss = torch::zeros({});
    for (auto &x : seq)
      loss = loss + model->forward(x).sum();
    loss.backward();
  }
}

// Neither eval() before the loop nor an evaluation name.
void run_batches(Net model, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs)
    model->forward(x);
}
void protest_contest(Net model, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs)
    model->forward(x);
}
void switch_mode_after(Net model, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs)
    model->forward(x);
  model->eval();
}

// Every caller holds a guard.
void evaluate(Net model, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs)
    model->forward(x);
}
void callers(Net model, std::vector<torch::Tensor> &xs) {
  torch::NoGradGuard no_grad;
  evaluate(model, xs);
  if (!xs.empty())
    evaluate(model, xs);
}

void lookalike(Lookalike &l, std::vector<torch::Tensor> &xs) {
  l.eval();
  for (auto &x : xs)
    l.forward(x);
}

void no_loop(Net model, torch::Tensor x) {
  model->eval();
  model->forward(x);
}

// The guard inside the lambda that runs the loop.
void lambda_guard(Net model, std::vector<torch::Tensor> &xs) {
  model->eval();
  auto run = [&] {
    torch::NoGradGuard no_grad;
    for (auto &x : xs)
      model->forward(x);
  };
  run();
}
// CHECK-MESSAGES-NOT: warning:
