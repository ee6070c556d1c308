// A lambda kept in a variable of a loop's body and called there (or handed
// there to code that runs it), taking no more than numbers (a minibatch
// step), is the loop's own code: its reads
// are reported where they are written, with the call as a note. One that
// takes tensors, or is defined outside the loop, is a helper: reported at
// the call.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

// The program can use CUDA.
torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

float train(const std::vector<torch::Tensor> &batches, torch::Device device, int minibatches) {
  float total = 0;
  for (const auto &b : batches) {
    auto x = b.to(device);
    auto step = [&](int start, int stop) {
      auto part = x.slice(0, start, stop);
      total += part.mean().item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: '.item()' copies the value to the host and waits for the GPU on every iteration
      // CHECK-MESSAGES: :[[@LINE+9]]:9: note: 'step', defined in the loop, is called here
      // CHECK-MESSAGES: :[[@LINE+7]]:7: note: in this loop
      total += part.max().cpu().item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '.cpu()' copies the tensor to the host
      // CHECK-MESSAGES: :[[@LINE+5]]:9: note: 'step', defined in the loop, is called here
      // CHECK-MESSAGES: :[[@LINE+3]]:7: note: in this loop
    };
    if (minibatches > 1) {
      for (int m = 0; m < minibatches; ++m)
        step(m, m + 1);
    } else {
      step(0, 1);
    }
  }
  return total;
}

float once_per_batch(const std::vector<torch::Tensor> &batches, torch::Device device) {
  float total = 0;
  for (const auto &b : batches) {
    auto x = b.to(device);
    std::function<void()> log = [&] { total += x.sum().item<float>(); };
    // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: '.item()' copies the value to the host
    log();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: 'log', defined in the loop, is called here
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: in this loop
  }
  return total;
}

float helpers(const std::vector<torch::Tensor> &batches, torch::Device device) {
  float total = 0;
  auto outside = [&](int i) { total += batches[i].to(device).sum().item<float>(); };
  for (size_t i = 0; i < batches.size(); ++i) {
    auto x = batches[i].to(device);
    outside(i);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'outside' runs '.item()'
    auto given = [&](const torch::Tensor &t) { total += t.sum().item<float>(); };
    given(x);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'given' runs '.item()'
    auto unused = [&](int) { total += x.min().item<float>(); };  // never called
    auto logged = [&] { total += x.max().item<float>(); };
    if (i % 10 == 0)
      logged();  // every tenth iteration only
    auto scan = [&](int n) {
      for (int k = 0; k < n; ++k)
        total += x[k].item<float>();
      // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: '.item()' copies the value to the host
      // CHECK-MESSAGES: :[[@LINE-3]]:7: note: in this loop
    };
    scan(2);
  }
  return total;
}

// A closure kept in a variable of the loop's body and handed to code that
// runs it (LBFGS's step calls it on every iteration, several times) is the
// loop's own code too; one only stored is not run there.
float lbfgs_fit(torch::nn::Linear model, torch::Tensor x, std::vector<std::function<torch::Tensor()>> &kept) {
  torch::optim::LBFGS lbfgs(model->parameters(), torch::optim::LBFGSOptions(1.0));
  float last = 0;
  for (int epoch = 0; epoch < 50; ++epoch) {
    auto closure = [&]() -> torch::Tensor {
      lbfgs.zero_grad();
      torch::Tensor loss = model(x).pow(2).mean();
      if (torch::isnan(loss).any().item<bool>())
        // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: '.item()' copies the value to the host
        // CHECK-MESSAGES: :[[@LINE+8]]:11: note: the lambda, defined in the loop, is handed here to 'step', which runs it
        // CHECK-MESSAGES: :[[@LINE-7]]:3: note: in this loop
        return torch::zeros({}, torch::requires_grad(true));
      loss.backward();
      return loss;
    };
    auto stored = [&]() -> torch::Tensor { return model(x).sum().cpu(); };
    kept.push_back(stored);
    lbfgs.step(closure);
  }
  return last;
}
