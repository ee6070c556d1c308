// What torch-hardcoded-device must not flag, with or without ModulesOnly.
// RUN: %torchtidy --quiet --checks='-*,torch-hardcoded-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf 'CheckOptions:\n  torch-hardcoded-device.ModulesOnly: true\n' > %t/modules_only.yaml
// RUN: %torchtidy --quiet --config-file=%t/modules_only.yaml --checks='-*,torch-hardcoded-device' \
// RUN:   %s -- %torch_flags | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

// A user class with its own cuda() method is not a tensor.
struct FakeTensor {
  FakeTensor cuda() const { return *this; }
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

// Device-selection sites in helpers: the CUDA branch runs only when CUDA is there.
torch::Device pick() {
  if (torch::cuda::is_available())
    return torch::Device(torch::kCUDA);
  return torch::Device(torch::kCPU);
}
#define PICK_DEVICE() (torch::cuda::is_available() ? torch::kCUDA : torch::kCPU)
template <typename M> void place(M &model) {
  if (torch::cuda::is_available())
    model->to(torch::kCUDA);
}
torch::Tensor maybe_gpu(torch::Tensor t) {
  auto opts = torch::cuda::is_available() ? torch::TensorOptions().device(torch::kCUDA)
                                          : torch::TensorOptions();
  return torch::cuda::is_available() ? t.cuda() : t.to(opts);
}

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
  if (torch::cuda::is_available()) {
    device = torch::kCUDA;
    chosen = torch::Device(torch::kCUDA, 0);
  }
  torch::Device picked = PICK_DEVICE();
  auto net = std::make_shared<Net>(device);
  net->to(device);
  if (torch::cuda::is_available())
    net->to(torch::kCUDA);
  place(net);
  auto t = torch::ones({2}).to(device);
  bool same = t.device() == torch::Device(torch::kCUDA) || t.device().type() == at::kCUDA;
  auto is_gpu = [](const torch::Tensor &x) { return x.is_cuda() || x.device().is_cuda(); };
  std::cout << torch::kCUDA << maybe_gpu(t) << pick();
  return on_gpu && same && is_gpu(t) && other.is_cpu() && chosen.is_cpu() && picked.is_cpu() ? 0 : 1;
}

// Code past an early exit on the test, and tests kept in a local first.
std::vector<torch::Device> all_gpus() {
  int gpus = torch::cuda::device_count();
  if (gpus <= 1)
    return {};
  std::vector<torch::Device> list;
  for (int i = 0; i < gpus; ++i)
    list.emplace_back(torch::kCUDA, i);
  return list;
}

torch::Device from_flag() {
  bool use_cuda = torch::cuda::is_available();
  return use_cuda ? torch::kCUDA : torch::kCPU;
}

void needs_gpu(torch::nn::Linear &m) {
  if (!torch::cuda::is_available()) {
    std::cerr << "no GPU\n";
    throw std::runtime_error("no GPU");
  }
  m->to(torch::kCUDA);
}
// CHECK-MESSAGES-NOT: warning:
