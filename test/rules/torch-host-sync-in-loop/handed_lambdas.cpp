// A lambda handed to a call in a loop (a thread pool's job, std::for_each)
// runs on every iteration; a lambda kept for later does not, and a callee
// whose body is here is followed instead (once, at the call).
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#include <algorithm>
#include <functional>

struct Pool {
  void queue(std::function<void()> job);  // defined in another file
};
struct Registry {
  std::vector<std::function<void()>> jobs;
  void add(std::function<void()> job) { jobs.push_back(std::move(job)); }
};
template <typename F> void now(F f) { f(); }

torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

void rollout(std::vector<torch::Tensor> &xs, Pool &pool, Registry &registry) {
  float total = 0;
  std::vector<std::function<void()>> later;
  for (auto &x : xs) {
    auto y = x.to(device);
    pool.queue([&] { total += y.sum().item<float>(); });
    // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: '.item()' copies the value to the host
    std::for_each(xs.begin(), xs.end(), [&](const torch::Tensor &t) { total += t.to(device).sum().item<float>(); });
    // CHECK-MESSAGES: :[[@LINE-1]]:99: warning: '.item()' copies the value to the host
    now([&] { total += y.max().item<float>(); });
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'now' runs '.item()'
    registry.add([&] { total += y.min().item<float>(); });  // kept, run elsewhere
    later.push_back([&] { total += y.mean().item<float>(); });
    auto kept = [&] { return y.norm().item<float>(); };
  }
}

// A callable parameter (std::function, a function pointer) runs what the
// calls hand it: a call of it in a loop reads what any of those does.
torch::Tensor tiles(torch::Tensor in, std::function<torch::Tensor(torch::Tensor)> fn) {
  torch::Tensor out = torch::zeros_like(in);
  for (int i = 0; i < in.size(0); ++i)
    out.index_put_({i}, fn(in[i]));
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: call to 'fn' runs '.cpu()', which copies the tensor to the host
  // CHECK-MESSAGES: :[[@LINE+25]]:21: note: 'fn' is 'upscale' passed here
  // CHECK-MESSAGES: :[[@LINE+23]]:61: note: '.cpu()' waits for the GPU here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: in this loop
  return out;
}
float each(torch::Tensor in, float (*fn)(torch::Tensor)) {
  float total = 0;
  for (int i = 0; i < in.size(0); ++i)
    total += fn(in[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'fn' runs '.item()', which copies the value to the host
  // CHECK-MESSAGES: :[[@LINE+17]]:21: note: 'fn' is 'score' passed here
  // CHECK-MESSAGES: :[[@LINE+5]]:18: note: '.item()' waits for the GPU here
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: in this loop
  return total;
}
float score(torch::Tensor t) {
  return t.sum().item<float>();
}
void once(torch::Tensor in, const std::function<void(torch::Tensor)> &fn) { fn(in); }
void stored(std::function<void(torch::Tensor)> fn, Registry &registry) {
  registry.add([fn] {});
}

void callbacks(torch::Tensor x, Registry &registry) {
  auto upscale = [&](torch::Tensor t) { return t.to(device).cpu(); };
  auto y = tiles(x, upscale);
  tiles(x, [](torch::Tensor t) { return t * 2; });
  float s = each(y, score);
  for (int epoch = 0; epoch < 10; ++epoch) {
    once(x, [&](torch::Tensor t) { s += t.max().item<float>(); });
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'once' runs '.item()', which copies the value to the host
    // CHECK-MESSAGES: :[[@LINE-13]]:77: note: 'once' calls 'fn' here
    // CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'fn' is the lambda passed here
    // CHECK-MESSAGES: :[[@LINE-4]]:49: note: '.item()' waits for the GPU here
    // CHECK-MESSAGES: :[[@LINE-6]]:3: note: in this loop
    once(y, [&](torch::Tensor t) { s += 1; });
    stored([&](torch::Tensor t) { s += t.min().item<float>(); }, registry);
  }
}
