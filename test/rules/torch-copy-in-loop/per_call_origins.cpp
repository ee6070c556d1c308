// A helper's result comes from where the tensors its call passes come from:
// while its body is read, each parameter's origin is the call's argument,
// so a helper of two tensors made with one tensor's options returns a
// tensor there, and .to() of those options copies nothing. An element of
// the tuple a LibTorch op returns (std::get<0>(torch::max(x, 0))) comes
// from where x does.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

static const torch::Device Gpu(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

static torch::Tensor overlap(torch::Tensor a, torch::Tensor b) {
  auto box_a = torch::zeros_like(a);
  auto box_b = torch::zeros_like(b);
  auto inter = torch::min(box_a, box_b);
  inter = inter.select(1, 0) * inter.select(1, 1);
  return inter / (box_a.sum() + box_b.sum() - inter);
}

void ignore_mask(torch::Tensor prediction, std::vector<torch::Tensor> targets) {
  auto opts = prediction.options();
  auto boxes = torch::randn_like(prediction).to(opts);
  for (size_t i = 0; i < targets.size(); ++i) {
    auto truth = torch::cat({targets[i], targets[i]}, -1).to(opts);
    // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: '.to(device)' is a blocking copy from host to device
    auto best = std::get<0>(torch::max(overlap(truth, boxes[i]), 0));
    auto mask = (best <= 0.5).to(opts);
    auto t = torch::max(overlap(truth, boxes[i]), 0);
    auto kept = std::get<0>(t);
    kept = kept.view({-1});
    auto mask2 = (kept <= 0.5).to(opts);
    auto host = overlap(torch::ones({2, 4}), torch::ones({2, 4})).to(opts);
    // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: '.to(device)' is a blocking copy from host to device
  }
}
