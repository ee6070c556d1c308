// RUN: not %torchtidy --quiet --checks='-*,torch-eval-without-no-grad' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
};
TORCH_MODULE(Net);

#define RUN_MODEL(m, x) (m)->forward(x)

void after_eval(Net model, std::vector<torch::Tensor> &batches) {
  model->eval();
  for (auto &x : batches) {
    auto out = model->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: forward after 'eval()' runs with autograd recording: each output keeps its graph and activations alive until it is freed; declare 'torch::NoGradGuard no_grad;' (or 'c10::InferenceMode guard;') before the loop [torch-eval-without-no-grad]
    // CHECK-MESSAGES: :[[@LINE-3]]:3: note: in this loop, which calls no backward() or step()
    auto again = model->forward(x);  // one finding per loop
  }
}

void holder_call(torch::nn::Linear lin, std::vector<torch::Tensor> &batches) {
  lin->eval();
  for (size_t i = 0; i < batches.size(); ++i)
    batches[i] = lin(batches[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: forward after 'eval()' runs
}

float evaluate(Net model, torch::Tensor x) {
  float total = 0;
  int n = 0;
  while (n++ < 10)
    total += model->forward(x).sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: forward in 'evaluate' runs with autograd recording
  return total;
}

void runValidation(Net model, torch::Tensor x) {
  for (int i = 0; i < 3; ++i)
    model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: forward in 'runValidation' runs
}

void with_auto(torch::Tensor x) {
  auto net = std::make_shared<NetImpl>();
  net->train(false);
  do {
    x = net->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: forward after 'eval()' runs
  } while (x.numel() > 2);
}

template <typename M> void test_model(M &m, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs)
    m->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: forward in 'test_model' runs
}
template void test_model<Net>(Net &, std::vector<torch::Tensor> &);

void through_macro(Net model, std::vector<torch::Tensor> &xs) {
  model->eval();
  for (auto &x : xs)
    RUN_MODEL(model, x);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: forward after 'eval()' runs
}

void in_lambda(Net model, std::vector<torch::Tensor> &xs) {
  auto infer_all = [&] {
    model->eval();
    for (auto &x : xs)
      model->forward(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: forward after 'eval()' runs
  };
  infer_all();
}

void guard_scope_ended(Net model, std::vector<torch::Tensor> &xs) {
  model->eval();
  {
    torch::NoGradGuard warmup_only;
    model->forward(xs[0]);
  }
  for (auto &x : xs)
    model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: forward after 'eval()' runs
}

void inference_mode_off(Net model, std::vector<torch::Tensor> &xs) {
  c10::InferenceMode off(false);
  model->eval();
  for (auto &x : xs)
    model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: forward after 'eval()' runs
}

void sequential(torch::nn::Sequential seq, std::vector<torch::Tensor> &xs) {
  seq->eval();
  for (auto &x : xs)
    seq->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: forward after 'eval()' runs
}

void any_module(torch::nn::AnyModule m, std::vector<torch::Tensor> &xs) {
  m.ptr()->eval();
  for (auto &x : xs)
    m.forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: forward after 'eval()' runs
}

// Called once with a guard and once without: the unguarded call records.
void predict_batches(Net model, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs)
    model->forward(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: forward in 'predict_batches' runs
}
void callers(Net model, std::vector<torch::Tensor> &xs) {
  {
    torch::NoGradGuard g;
    predict_batches(model, xs);
  }
  predict_batches(model, xs);
}
