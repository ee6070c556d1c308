// Single-process data parallelism, in its three entry points.
// RUN: not %torchtidy --quiet --checks='-*,torch-data-parallel' %s -- %torch_cuda_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <torch/nn/parallel/data_parallel.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

namespace par = torch::nn::parallel;
#define RUN_PARALLEL(m, x) torch::nn::parallel::data_parallel(m, x)

template <typename M> torch::Tensor generic(M module, torch::Tensor x) {
  return par::data_parallel(module, x);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data_parallel' replicates the module onto every device, scatters the input from one device and gathers all outputs back on one device, on every call; use one process per GPU with its own module and data shard, averaging gradients with a c10d all-reduce (NCCL), as DistributedDataParallel does [torch-data-parallel]
}

int main() {
  Net net;
  auto x = torch::randn({8, 4});
  auto y = torch::nn::parallel::data_parallel(net, x);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'data_parallel' replicates the module
  std::vector<torch::Device> devices = {torch::Device(torch::kCPU)};
  auto replicas = torch::nn::parallel::replicate(net, devices);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'replicate' copies the module's parameters and buffers onto every device each time it runs
  std::vector<torch::Tensor> inputs = {x};
  auto outs = torch::nn::parallel::parallel_apply(replicas, inputs);
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'parallel_apply' runs one replica per device from one host thread
  using namespace torch::nn::parallel;
  auto again = data_parallel(net, x);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'data_parallel' replicates
  auto shared = std::make_shared<NetImpl>();
  auto z = par::data_parallel(shared, x, devices);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'data_parallel' replicates
  auto m = RUN_PARALLEL(net, x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'data_parallel' replicates
  // CHECK-MESSAGES: positives.cpp:15:49: note: expanded from macro 'RUN_PARALLEL'
  auto lambda = [&] { return par::data_parallel(net, x); };
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'data_parallel' replicates
  auto g = generic(net, x);
  return y.numel() + outs.size() + again.numel() + z.numel() + m.numel() + lambda().numel() + g.numel() > 0 ? 0 : 1;
}
