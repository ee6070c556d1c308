// RUN: not %torchtidy --quiet --checks='-*,torch-non-blocking-pageable' %s -- %torch_flags -I%S/Inputs \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include "upload.h"

#define UPLOAD(t, d) (t).to(d, true)

template <typename D> torch::Tensor upload_new(D device) {
  auto host = torch::zeros({4});
  return host.to(device, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: non_blocking=true has no effect on a copy from pageable host memory: the host still waits for it; pin the source (.pin_memory()) or drop non_blocking [torch-non-blocking-pageable]
}

using Batch = torch::data::Example<>;

void run(torch::Device device, std::vector<Batch> &batches, torch::Tensor gpu, float *buf) {
  for (auto &batch : batches) {
    auto data = batch.data.to(device, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: non_blocking=true has no effect
    auto target = batch.target.to(device, torch::kLong, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: non_blocking=true has no effect
    auto x = batch.data;
    auto y = x.to(device, true);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: non_blocking=true has no effect
  }
  auto r = torch::randn({3, 3}).to(torch::kCUDA, true);
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: non_blocking=true has no effect
  auto blob = torch::from_blob(buf, {4});
  auto b = blob.to(device, true);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: non_blocking=true has no effect
  auto back = gpu.cpu();
  auto again = back.to(device, true);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: non_blocking=true has no effect
  auto cpu_made = torch::ones({2}, torch::TensorOptions().dtype(torch::kFloat).device(torch::kCPU));
  auto c = cpu_made.to(torch::TensorOptions().device(device), true);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: non_blocking=true has no effect
  auto t = upload_new(device);
  auto m = UPLOAD(torch::zeros({2}), device);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: non_blocking=true has no effect
  auto s = header_staging().to(device, true);  // a user function's result: unknown
  auto e = torch::empty({8});
  auto lam = [&] { return e.to(device, true); };
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: non_blocking=true has no effect
  auto other = torch::zeros({2}).to(gpu, true);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: non_blocking=true has no effect
}
