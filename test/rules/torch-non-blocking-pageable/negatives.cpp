// RUN: %torchtidy --quiet --checks='-*,torch-non-blocking-pageable' %s -- %torch_flags -I%S/Inputs \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include "upload.h"

struct FakeTensor { FakeTensor to(torch::Device, bool) const { return *this; } };
torch::Tensor make_host();
template <typename T> torch::Tensor send(const T &t, torch::Device d) { return t.to(d, true); }

void run(torch::Device device, torch::Tensor param, std::vector<torch::data::Example<>> &batches,
         torch::TensorOptions opts) {
  for (auto &batch : batches) {
    auto a = batch.data.pin_memory().to(device, /*non_blocking=*/true);  // pinned
    auto pinned = batch.data.pin_memory();
    auto b = pinned.to(device, true);                                    // pinned variable
    auto c = batch.data.to(device);                                      // blocking on purpose
    auto d = batch.data.to(device, false);                               // non_blocking=false
  }
  auto p = torch::empty({4}, torch::TensorOptions().pinned_memory(true)).to(device, true);
  auto q = param.to(device, true);                         // a parameter: unknown memory
  auto r = make_host().to(device, true);                   // a user function's result
  auto s = torch::zeros({4}, opts).to(device, true);       // options from a variable
  auto g = torch::zeros({4}, torch::TensorOptions().device(device)).to(device, true);  // maybe on the GPU
  auto h = torch::zeros({4}).to(torch::kCPU, true);        // to the CPU
  auto i = torch::zeros({4}).to(torch::kHalf, true);       // a dtype conversion
  auto j = header_upload(torch::zeros({4}), device);       // the helper's source is a parameter
  auto k = send(param, device);                            // template, unknown source
  FakeTensor f;
  f.to(device, true);                                      // not a tensor
  auto pinned_cpu = torch::ones({2}, torch::TensorOptions().pinned_memory(true));
  auto l = pinned_cpu.cpu().to(device, true);              // cpu() of a pinned CPU tensor is itself
}
// CHECK-MESSAGES-NOT: warning:
