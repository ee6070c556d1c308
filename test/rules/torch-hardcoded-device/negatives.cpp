// What torch-hardcoded-device must not flag.
// RUN: %torchtidy --quiet --checks='-*,torch-hardcoded-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

// A user class with its own cuda() method is not a tensor.
struct FakeTensor {
  FakeTensor cuda() const { return *this; }
};

// Not a torch::nn::Module, even though it is called Module.
struct Module {
  torch::Tensor make() { return torch::ones({2}).cuda(); }
};

struct Net : torch::nn::Module {
  explicit Net(torch::Device device) : device_(device) {
    w = register_parameter("w", torch::randn({3}, torch::TensorOptions().device(device)));
  }
  torch::Tensor forward(torch::Tensor x) {
    FakeTensor f;
    f.cuda();
    auto y = torch::zeros({3}, x.options());
    auto z = torch::ones({3}).to(x.device());
    auto d = y.to(device_);
    if (x.device().type() == torch::kCUDA && x.is_cuda())
      return x + w + y + z + d;
    return x.cpu();
  }
  torch::Tensor w;
  torch::Device device_;
};

torch::Tensor helper(torch::Tensor t) { return t.cuda(); }  // not in a module: other checks' business

int main() {
  // The single device-selection site.
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Device other = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  torch::Device cpu(torch::kCPU);
  torch::Device chosen = cpu;
  if (torch::cuda::is_available()) {
    torch::Device gpu(torch::kCUDA);
    chosen = gpu;
  }
  if (torch::cuda::device_count() > 1)
    chosen = torch::Device(torch::kCUDA, 1);
  bool on_gpu = device.is_cuda() || device.type() == torch::kCUDA;
  auto net = std::make_shared<Net>(device);
  net->to(device);
  auto t = torch::ones({2}).to(device);
  return on_gpu && t.defined() && other.is_cpu() && chosen.is_cpu() ? 0 : 1;
}
// CHECK-MESSAGES-NOT: warning:
