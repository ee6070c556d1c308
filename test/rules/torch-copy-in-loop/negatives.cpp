// RUN: %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

// The program may use CUDA, so the check is on: nothing below is silent
// for being CPU-only.
static const bool use_cuda = torch::cuda::is_available();

struct FakeTensor { FakeTensor cuda() const { return *this; } FakeTensor to(torch::Device) const { return *this; } };
struct FakeModel { void to(torch::Device) {} };
torch::Tensor helper(const torch::Tensor &t, torch::Device d) { return t.to(d); }

void run(torch::Device device, std::vector<torch::Tensor> xs, torch::Tensor big) {
  auto once = big.to(device);                        // before the loop
  auto moved = helper(big, device);                  // not in a loop
  FakeTensor f;
  FakeModel m;
  for (auto &x : xs) {
    auto p = x.pin_memory().to(device, /*non_blocking=*/true);  // pinned + non_blocking
    auto pinned = x.pin_memory();
    auto q = pinned.to(device, true);                // pinned variable
    auto r = torch::empty({4}, torch::TensorOptions().pinned_memory(true));
    auto s = r.to(device, true);                     // pinned factory
    auto c = x.to(torch::kCPU);                      // destination is the CPU
    auto d = x.to(torch::Device(torch::kCPU));
    auto h = x.to(torch::kHalf);                     // dtype only
    auto o = x.to(torch::TensorOptions().dtype(torch::kFloat));
    f.cuda();                                        // not a tensor
    f.to(device);
    m.to(device);                                    // not a torch::nn::Module
    auto lam = [&] { return x.to(device); };         // defined, never called
    (void)p; (void)q; (void)s; (void)c; (void)d; (void)h; (void)o; (void)lam;
  }
  for (auto y = big.to(device); y.dim() > 5;)        // a for's init runs once
    y = y.squeeze();
  for (auto &t : big.to(device).unbind(0))           // so does a range-for's range
    (void)t;
  for (int i = 0; i < 3; ++i) {
    auto z = big.to(torch::kFloat, /*non_blocking=*/true);  // dtype overload
    (void)z;
  }
  auto after = big.to(device);                       // after the loop
  (void)once; (void)moved; (void)after;
}

// A module's parameters and buffers moved one by one: each moves once.
void move_state(torch::nn::Linear &model, const torch::Device &device) {
  for (auto &param : model->parameters())
    if (device.is_cuda() && !param.is_cuda())
      param = param.to(device);
  for (auto &buffer : model->buffers())
    buffer = buffer.to(device);
}

// Behind a constant false condition, in the loop or in a loop of its own.
#define DEBUG_COPIES 0
void debug_copies(std::vector<torch::Tensor> xs, torch::Device device) {
  for (auto &x : xs) {
    if (DEBUG_COPIES) {
      auto y = x.to(device);
      (void)y;
    }
    auto z = DEBUG_COPIES ? x.to(device) : x;
    (void)z;
  }
  if (DEBUG_COPIES)
    for (auto &x : xs)
      x = x.to(device);
}
// CHECK-MESSAGES-NOT: warning:
