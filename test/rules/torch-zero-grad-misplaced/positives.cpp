// RUN: not %torchtidy --quiet --checks='-*,torch-zero-grad-misplaced' %s -- %torch_flags -I%S/Inputs \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include "clear_grads.h"

#define CLEAR(o) (o).zero_grad()
void reset(torch::optim::SGD &opt) { opt.zero_grad(); }

void plain(std::vector<torch::Tensor> &losses, torch::optim::SGD &opt) {
  for (auto &loss : losses) {
    loss.backward();
    opt.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'zero_grad()' runs after backward() and before step(): the step applies zeroed gradients; clear them before backward() or after step() [torch-zero-grad-misplaced]
    // CHECK-MESSAGES: :[[@LINE-3]]:10: note: backward() computes the gradients here
    // CHECK-MESSAGES: :[[@LINE+1]]:9: note: step() applies them here
    opt.step();
  }
}

void module_clear(torch::nn::Linear &model, torch::optim::Adam &opt, torch::Tensor x) {
  for (int i = 0; i < 10; ++i) {
    auto loss = model->forward(x).sum();
    loss.backward();
    model->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'zero_grad()' runs after backward()
    opt.step();
  }
}

void through_helper(torch::Tensor loss, torch::optim::SGD &opt) {
  while (true) {
    loss.backward();
    reset(opt);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'reset', which runs 'zero_grad()', runs after backward()
    // CHECK-MESSAGES: :7:42: note: the gradients are cleared here
    opt.step();
  }
}

void header_helper(torch::Tensor loss, torch::optim::SGD &opt) {
  do {
    loss.backward();
    clear_grads(opt);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'clear_grads', which runs 'zero_grad()', runs after backward()
    opt.step();
  } while (false);
}

void in_macro(torch::Tensor loss, torch::optim::SGD &opt) {
  for (int i = 0; i < 3; ++i) {
    loss.backward();
    CLEAR(opt);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'zero_grad()' runs after backward()
    opt.step();
  }
}

template <typename Opt> void templated(torch::Tensor loss, Opt &opt) {
  for (int i = 0; i < 3; ++i) {
    loss.backward();
    opt.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'zero_grad()' runs after backward()
    opt.step();
  }
}
template void templated(torch::Tensor, torch::optim::SGD &);

void auto_and_pointer(std::vector<torch::Tensor> &losses, std::shared_ptr<torch::optim::SGD> opt) {
  for (const auto &loss : losses) {
    auto l = loss * 2;
    l.backward();
    opt->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'zero_grad()' runs after backward()
    opt->step();
  }
}

void grad_reset(torch::Tensor loss, torch::Tensor w, torch::optim::SGD &opt) {
  for (int i = 0; i < 3; ++i) {
    loss.backward();
    w.mutable_grad().zero_();
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '.zero_()' on a gradient runs after backward()
    opt.step();
  }
}

void in_lambda(torch::Tensor loss, torch::optim::SGD &opt) {
  auto train = [&] {
    for (int i = 0; i < 3; ++i) {
      loss.backward();
      if (i > 0)
        opt.zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'zero_grad()' runs after backward()
      opt.step();
    }
  };
  train();
}
