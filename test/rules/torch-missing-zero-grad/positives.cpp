// RUN: not %torchtidy --quiet --checks='-*,torch-missing-zero-grad' %s -- %torch_flags -I%S/Inputs \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include "clear.h"

void train_step(torch::Tensor loss, torch::optim::SGD &opt) {
  loss.backward();
  opt.step();
}
template <typename T> void tmpl_backward(T &loss) { loss.backward(); }
#define BACKWARD(l) (l).backward()
struct Trainer {
  std::shared_ptr<torch::optim::Optimizer> opt;
  void fit(torch::Tensor loss) { loss.backward(); opt->step(); }
};
void train_epoch(std::vector<torch::Tensor> &batches, torch::optim::SGD &opt) {
  for (auto &b : batches) {
    b.backward();
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'step()' applies gradients
  }
}
template <typename Opt> void train_all(Opt &opt, torch::Tensor loss) {
  for (int i = 0; i < 3; ++i) {
    loss.backward();
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'step()' applies gradients
  }
}
template void train_all(torch::optim::SGD &, torch::Tensor);

void run(torch::Tensor loss, torch::optim::SGD &opt, torch::optim::Adam &adam,
         std::vector<torch::Tensor> batches) {
  for (int i = 0; i < 10; ++i) {
    loss.backward();
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'step()' applies gradients that no code in this loop clears, so backward() adds every iteration's gradients onto the last; call optimizer.zero_grad() once per iteration [torch-missing-zero-grad]
    // CHECK-MESSAGES: :[[@LINE-3]]:10: note: gradients are accumulated by backward() here
  }
  for (auto &b : batches) {
    train_step(b, opt);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'train_step' runs 'step()', which applies gradients
  }
  bool done = false;
  while (!done) {
    torch::autograd::backward({loss});
    adam.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'step()' applies gradients
    done = true;
  }
  auto lam = [&] { loss.backward(); opt.step(); };
  for (int i = 0; i < 3; ++i)
    lam();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'lam' runs 'step()'
  for (int i = 0; i < 3; ++i) {
    tmpl_backward(loss);
    header_step(opt);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'header_step' runs 'step()'
  }
  for (int i = 0; i < 3; ++i) {
    BACKWARD(loss);
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'step()' applies gradients
  }
  opt.zero_grad();  // only before the loops: not per iteration
  for (int e = 0; e < 2; ++e) {
    opt.zero_grad();
    for (auto &b : batches) {
      b.backward();
      opt.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'step()' applies gradients
    }
  }
  int k = 0;
  do { loss.backward(); opt.step(); } while (++k < 3);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'step()' applies gradients
  for (int e = 0; e < 2; ++e)
    train_epoch(batches, opt);  // reported at the helper's own loop, not again here
  Trainer t;
  for (int i = 0; i < 3; ++i)
    t.fit(loss);
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: call to 'fit' runs 'step()'
  for (int i = 0; i < 3; ++i) {
    loss.backward();
    opt.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'step()' applies gradients
  }
  opt.zero_grad();  // after the loop: too late
  while (true) {
    auto l = loss * 2;
    l.backward();
    if (k++ > 5)
      break;
    adam.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'step()' applies gradients
  }
}
