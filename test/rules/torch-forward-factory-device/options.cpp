// Factories in forward() given options whose device the code does not show
// (a global's, a getter's, a field's, a parameter's): the tensor goes where
// those options say, not necessarily to the CPU, and not where the input is.
// RUN: not %torchtidy --quiet --checks='-*,torch-forward-factory-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

torch::TensorOptions global_options;
struct Controller {
  static torch::TensorOptions getTensorOptions() { return global_options; }
};
#define OPTS Controller::getTensorOptions()

struct PolicyImpl : torch::nn::Module {
  torch::TensorOptions opts;
  torch::Tensor forward(torch::Tensor x, torch::TensorOptions given) {
    auto a = torch::empty({3}, Controller::getTensorOptions());
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'empty' in 'PolicyImpl::forward' makes its tensor on the device that the options 'getTensorOptions()' name, not on the input's; pass the input's options ('x.options()') or device, or use 'torch::empty_like(x)' [torch-forward-factory-device]
    auto b = torch::zeros({3}, global_options.dtype(torch::kFloat));
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'zeros' in 'PolicyImpl::forward' makes its tensor on the device that the options 'global_options' name, not on the input's
    auto c = torch::ones({3}, opts);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'ones' in 'PolicyImpl::forward' makes its tensor on the device that the options 'opts' name, not on the input's
    auto d = torch::full({3}, 1.0, given);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'full' in 'PolicyImpl::forward' makes its tensor on the device that the options 'given' name, not on the input's
    auto e = torch::randn({3}, OPTS);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'randn' in 'PolicyImpl::forward' makes its tensor on the device that the options 'getTensorOptions()' name
    // A local's initialiser is seen: without a device, the tensor is a CPU one.
    auto local = torch::dtype(torch::kFloat);
    auto f = torch::zeros({3}, local);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'zeros' in 'PolicyImpl::forward' makes a CPU tensor whatever device the input is on
    // Options that carry the input's device, through a local: not flagged.
    auto same = x.options();
    auto g = torch::zeros({3}, same);
    auto dev = torch::TensorOptions().device(x.device());
    auto h = torch::ones({3}, dev.dtype(torch::kFloat));
    auto lambda = [&] { return torch::eye(3, opts); };
    // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'eye' in 'PolicyImpl::forward' makes its tensor on the device that the options 'opts' name
    return x + a + b + c + d + e + f + g + h + lambda().sum();
  }
};
TORCH_MODULE(Policy);

template <typename T> struct Generic : torch::nn::Module {
  T forward(T x) { return x + torch::ones({3}, Controller::getTensorOptions()); }
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: 'ones' in 'Generic::forward' makes its tensor on the device that the options 'getTensorOptions()' name
  T through_local(T x) {
    auto o = x.options();
    return torch::ones({3}, o);  // not forward, and o carries x's device anyway
  }
};
template struct Generic<torch::Tensor>;

int main() {
  Policy p;
  auto t = torch::zeros({3});
  return p->forward(t, {}).numel() + Generic<torch::Tensor>().forward(t).numel() > 0 ? 0 : 1;
}
