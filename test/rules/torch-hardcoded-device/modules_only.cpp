// torch-hardcoded-device.ModulesOnly keeps the narrower scope: program code
// outside modules is not checked, only unguarded CUDA device variables are.
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf 'CheckOptions:\n  torch-hardcoded-device.ModulesOnly: true\n' > %t/modules_only.yaml
// RUN: not %torchtidy --quiet --config-file=%t/modules_only.yaml --checks='-*,torch-hardcoded-device' \
// RUN:   %s -- %torch_flags | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
// The module and program positives are unchanged under the option.
// RUN: not %torchtidy --quiet --config-file=%t/modules_only.yaml --checks='-*,torch-hardcoded-device' \
// RUN:   %S/module_positives.cpp -- %torch_flags \
// RUN:   | FileCheck %S/module_positives.cpp -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
// RUN: not %torchtidy --quiet --config-file=%t/modules_only.yaml --checks='-*,torch-hardcoded-device' \
// RUN:   %S/program_positives.cpp -- %torch_flags \
// RUN:   | FileCheck %S/program_positives.cpp -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

static auto gpu_options = torch::TensorOptions().device(torch::kCUDA);
const torch::TensorOptions fixed_options(torch::kCUDA);

// The old negatives: .cuda() in a free function, and in a class that is not
// a torch::nn::Module even though it is called Module.
torch::Tensor helper(torch::Tensor t) { return t.cuda(); }
struct Module {
  torch::Tensor make() { return torch::ones({2}).cuda(); }
};

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + torch::ones({1}, torch::kCUDA); }
  // CHECK-MESSAGES: :[[@LINE-1]]:72: warning: device 'torch::kCUDA' is hard-coded in module 'Net'
};

int main() {
  torch::Device device(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device 'device' is fixed to CUDA with no CPU fallback
  auto net = std::make_shared<Net>();
  net->to(torch::kCUDA);
  auto x = torch::zeros({2}, torch::kCUDA).to(torch::Device("cuda:1"));
  auto y = [](torch::Tensor t) { return t.cuda(); }(x);
  return helper(y).defined() && gpu_options.has_device() && fixed_options.has_device() ? 0 : 1;
}
