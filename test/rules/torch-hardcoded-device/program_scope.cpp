// CUDA fixed in program code, outside modules: free functions, lambdas,
// templates, macros, namespace scope. Each literal is reported once.
// RUN: not %torchtidy --quiet --checks='-*,torch-hardcoded-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#define ON_GPU(t) (t).cuda()

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(2, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

static auto gpu_options = torch::TensorOptions().dtype(torch::kFloat).device(torch::kCUDA);
// CHECK-MESSAGES: :[[@LINE-1]]:78: warning: device 'torch::kCUDA' is hard-coded; the program fails on a machine without a GPU and ignores its device variable; select the device once ('torch::cuda::is_available() ? torch::kCUDA : torch::kCPU') and pass it [torch-hardcoded-device]
const torch::TensorOptions fixed_options(torch::kCUDA);
// CHECK-MESSAGES: :[[@LINE-1]]:42: warning: device 'torch::kCUDA' is hard-coded;

// A helper outside any module (this was not flagged before: only modules were).
torch::Tensor helper(torch::Tensor t) { return t.cuda(); }
// CHECK-MESSAGES: :[[@LINE-1]]:50: warning: '.cuda()' puts the tensor on the current CUDA device (cuda:0) whatever device the program selected, and fails on a machine without a GPU; use '.to(<device>)' with the program's device variable [torch-hardcoded-device]

// Not a torch::nn::Module, even though it is called Module: program code.
struct Module {
  torch::Tensor make() { return torch::ones({2}).cuda(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: '.cuda()' puts the tensor on the current CUDA device
};

// Dependent: reported in the instantiation, once.
template <typename T> T to_gpu(const T &t) { return t.to(torch::kCUDA); }
// CHECK-MESSAGES: :[[@LINE-1]]:58: warning: device 'torch::kCUDA' is hard-coded;
// Not dependent: seen in the template and in its instantiation, reported once.
template <typename T> T plus_ones(const T &t) { return t + torch::ones({2}, at::kCUDA); }
// CHECK-MESSAGES: :[[@LINE-1]]:77: warning: device 'at::kCUDA' is hard-coded;

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  net->to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: device 'torch::kCUDA' is hard-coded;
  auto x = torch::randn({2, 2}).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: '.cuda()' puts the tensor on the current CUDA device
  // CHECK-MESSAGES-NEXT: {{^}}  auto x = torch::randn({2, 2}).cuda();
  // CHECK-MESSAGES-NEXT: {{^}}                                ^~~~~~
  // CHECK-MESSAGES-NEXT: {{^}}                                to(device)
  auto y = torch::zeros({2}, torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: device 'torch::kCUDA' is hard-coded;
  auto z = x.to(torch::Device("cuda:1"));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device 'torch::Device("cuda:1")' is hard-coded;
  auto w = x.to(torch::Device(torch::kCUDA, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device 'torch::Device(torch::kCUDA, 1)' is hard-coded;
  auto e = torch::empty({2}, torch::TensorOptions().device(c10::DeviceType::CUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:60: warning: device 'c10::DeviceType::CUDA' is hard-coded;
  auto f = torch::ones({2}, torch::device(at::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: device 'at::kCUDA' is hard-coded;
  auto lambda = [](torch::Tensor t) { return t.cuda(); };
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: '.cuda()' puts the tensor
  // CHECK-MESSAGES-NOT: {{^ *to\(}}
  auto m = ON_GPU(x);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: '.cuda()' puts the tensor
  // CHECK-MESSAGES: program_scope.cpp:7:23: note: expanded from macro 'ON_GPU'
  torch::load(net, "net.pt", torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: device 'torch::kCUDA' is hard-coded;
  auto k = to_gpu(x) + plus_ones(y) + helper(z) + lambda(w) + e + f + m;
  return k.defined() && gpu_options.has_device() && fixed_options.has_device() ? 0 : 1;
}

// An early exit on another condition, or a test whose local changes later,
// guards nothing.
void early_exit(torch::nn::Linear &m, int epochs, bool fast) {
  if (epochs == 0)
    return;
  m->to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: device 'torch::kCUDA' is hard-coded
  bool gpu = torch::cuda::is_available();
  gpu = fast;
  if (gpu)
    m->to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: device 'torch::kCUDA' is hard-coded
}
