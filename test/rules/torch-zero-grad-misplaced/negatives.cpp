// RUN: %torchtidy --quiet --checks='-*,torch-zero-grad-misplaced' %s -- %torch_flags -I%S/Inputs \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include "clear_grads.h"

struct Fake { void zero_grad() {} void step() {} };
void step_and_clear(torch::optim::SGD &opt) { opt.step(); opt.zero_grad(); }

void run(std::vector<torch::Tensor> &losses, torch::optim::SGD &opt, torch::optim::SGD &gen_opt,
         torch::nn::Linear &model, torch::Tensor w) {
  for (auto &loss : losses) {          // zero_grad before backward: right
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  for (auto &loss : losses) {          // zero_grad after step: right
    loss.backward();
    opt.step();
    opt.zero_grad();
  }
  for (auto &loss : losses) {          // a GAN: the other optimizer's gradients
    loss.backward();
    gen_opt.zero_grad();
    opt.step();
  }
  for (auto &loss : losses) {          // step and clear in one helper
    loss.backward();
    step_and_clear(opt);
  }
  for (int i = 0; i < 4; ++i) {        // gradient accumulation: clear after the step
    losses[i].backward();
    if (i % 2 == 1) {
      opt.step();
      opt.zero_grad();
    }
  }
  for (auto &loss : losses) {          // no step in the loop
    loss.backward();
    model->zero_grad();
  }
  for (auto &loss : losses) {          // not LibTorch's
    Fake f;
    loss.backward();
    f.zero_grad();
    f.step();
  }
  for (auto &loss : losses) {          // a lambda defined, not called, in the loop
    loss.backward();
    auto later = [&] { clear_grads(opt); };
    opt.step();
  }
  for (auto &loss : losses) {          // zero_() of a tensor that is not a gradient
    loss.backward();
    w.zero_();
    opt.step();
  }
  opt.zero_grad();                     // not in a loop
  losses[0].backward();
  opt.zero_grad();
  opt.step();
}
// CHECK-MESSAGES-NOT: warning:
