// What torch-data-parallel must not flag: look-alikes that are not
// LibTorch's single-process data parallelism.
// RUN: %torchtidy --quiet --checks='-*,torch-data-parallel' %s -- %torch_cuda_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <torch/nn/parallel/data_parallel.h>

namespace mine {
torch::Tensor data_parallel(torch::nn::Module &, torch::Tensor x) { return x; }
std::vector<int> replicate(int n) { return std::vector<int>(n); }
void parallel_apply() {}
} // namespace mine

struct Trainer {
  torch::Tensor data_parallel(torch::Tensor x) { return x; }
  void replicate() {}
};

struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};

int main() {
  NetImpl net;
  auto x = torch::randn({2});
  auto a = mine::data_parallel(net, x);
  auto r = mine::replicate(2);
  mine::parallel_apply();
  Trainer t;
  auto b = t.data_parallel(x);
  t.replicate();
  // Scatter and gather on their own are not the data_parallel pattern.
  auto parts = x.chunk(2);
  // A pointer to a look-alike and a variable that shares the name.
  auto fp = &mine::data_parallel;
  int data_parallel = 2;
  auto c = fp(net, x).repeat({data_parallel});
  auto replicated_name_only = torch::cat(parts);
  return a.numel() + b.numel() + r.size() + replicated_name_only.numel() + c.numel() > 0 ? 0 : 1;
}
// CHECK-MESSAGES-NOT: warning:
