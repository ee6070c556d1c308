// A helper's sync under one of its bool parameters (if (show), if
// (verbose)) runs only when the call passes true: a call in the loop that
// passes false, or leaves a false default, does not sync.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#include <iostream>

#define PREDICT_QUIETLY(d, x) d.predict(x, false)

torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

void show_boxes(const torch::Tensor &boxes) { std::cout << boxes << std::endl; }

struct Detector {
  torch::nn::Linear net{4, 4};
  void predict(torch::Tensor x, bool show) {
    auto boxes = net(x.to(device));
    if (show)
      show_boxes(boxes);
  }
};

double score(const torch::Tensor &x, bool verbose = false) {
  if (verbose)
    std::cout << x.mean().item<double>() << std::endl;
  return 0;
}

// The flag handed on: the inner call's sync runs when the outer flag is true.
void step(Detector &d, torch::Tensor x, bool show) { d.predict(x, show); }

// A flag the function changes is no flag.
void changed(const torch::Tensor &x, bool show) {
  show = show || x.numel() > 4;
  if (show)
    x.sum().item<float>();
}

// The sync outside the flag runs whatever the call passes.
void both(const torch::Tensor &x, bool show) {
  if (show)
    std::cout << x << std::endl;
  x.max().item<float>();
}

template <typename T> void dump(const T &x, bool show) {
  if (show)
    x.sum().template item<float>();
}

void run(Detector &d, std::vector<torch::Tensor> &batches, bool user_flag) {
  auto lambda = [](const torch::Tensor &x, bool show) {
    if (show)
      x.sum().item<float>();
  };
  for (auto &x : batches) {
    d.predict(x, false);
    PREDICT_QUIETLY(d, x);
    score(x);
    step(d, x, false);
    dump(x, false);
    lambda(x, false);
    d.predict(x, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: call to 'predict' runs streaming a tensor with '<<'
    d.predict(x, user_flag);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: call to 'predict' runs streaming a tensor with '<<'
    score(x, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'score' runs '.item()'
    step(d, x, 1 > 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'step' runs streaming a tensor with '<<'
    changed(x, false);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'changed' runs '.item()'
    both(x, false);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'both' runs '.item()'
    dump(x, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'dump' runs '.item()'
    lambda(x, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'lambda' runs '.item()'
  }
}
