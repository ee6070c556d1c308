// What torch-forward-factory-device must not flag.
// RUN: %torchtidy --quiet --checks='-*,torch-forward-factory-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() { w = register_parameter("w", torch::randn({3})); }  // constructor: moved with the module
  torch::Tensor forward(torch::Tensor x) {
    auto a = torch::zeros({3}, x.options());
    auto b = torch::ones({3}, torch::TensorOptions().device(x.device()));
    auto c = torch::zeros_like(x);
    auto d = torch::randn({3}, torch::dtype(torch::kFloat).device(x.device()));
    auto e = torch::empty({3}, x.device());
    auto f = torch::ones({3}).to(x.device());  // torch-create-then-move's business
    auto g = torch::ones_like(x) * x.new_zeros({3});
    return x + w + a + b + c + d + e + f + g + helper();
  }
  torch::Tensor helper() { return torch::zeros({3}); }  // not forward
  torch::Tensor w;
};

// forward of a class that is not a module.
struct Plain {
  torch::Tensor forward(torch::Tensor x) { return x + torch::zeros({3}); }
};

torch::Tensor forward(torch::Tensor x) { return x + torch::zeros({3}); }  // a free function

int main() {
  auto t = torch::zeros({3});
  return t.numel() + Plain().forward(t).numel() + forward(t).numel() > 0 ? 0 : 1;
}
// CHECK-MESSAGES-NOT: warning:
