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
