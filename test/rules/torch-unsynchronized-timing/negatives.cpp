// RUN: %torchtidy --quiet --checks='-*,torch-unsynchronized-timing' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <chrono>

using Clock = std::chrono::steady_clock;
extern "C" int cudaDeviceSynchronize();

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
};
TORCH_MODULE(Net);

void to_device(Net model) { model->to(torch::kCUDA); }

void synchronized(Net model, torch::Tensor x) {
  auto s = Clock::now();
  auto y = model->forward(x);
  torch::cuda::synchronize();
  auto e = Clock::now();
  (void)(e - s);
}

void c_api_sync(Net model, torch::Tensor x) {
  auto s = Clock::now();
  model->forward(x);
  cudaDeviceSynchronize();
  auto e = Clock::now();
  (void)(e - s);
}

void synced_in_loop(Net model, torch::Tensor x) {
  auto s = Clock::now();
  for (int i = 0; i < 3; ++i) {
    x = model->forward(x);
    torch::cuda::synchronize();
  }
  auto e = Clock::now();
  (void)(e - s);
}

// Reading a value back waits for the work that made it.
void read_back(Net model, torch::Tensor x) {
  auto s = Clock::now();
  float v = model->forward(x).sum().item<float>();
  auto e = Clock::now();
  (void)(e - s);
  (void)v;
}

// A sync in a helper.
void wait_gpu() { torch::cuda::synchronize(); }
void helper_sync(Net model, torch::Tensor x) {
  auto s = Clock::now();
  model->forward(x);
  wait_gpu();
  auto e = Clock::now();
  (void)(e - s);
}

// No tensor work in the region.
void host_only(std::vector<int> &v) {
  auto s = Clock::now();
  std::sort(v.begin(), v.end());
  auto e = Clock::now();
  (void)(e - s);
}
void sizes_only(torch::Tensor x) {
  auto s = Clock::now();
  auto n = x.numel() * x.dim();
  auto e = Clock::now();
  (void)(e - s);
  (void)n;
}

// One read only, and reads in different blocks.
void one_read(Net model, torch::Tensor x) {
  auto s = Clock::now();
  model->forward(x);
  if (x.numel() > 0) {
    auto e = Clock::now();
    (void)(e - s);
  }
}

// The work before the first read.
void work_before(Net model, torch::Tensor x) {
  auto y = model->forward(x);
  auto s = Clock::now();
  auto e = Clock::now();
  (void)(e - s);
}

// A stream's synchronize.
void stream_sync(Net model, torch::Tensor x, c10::Stream stream) {
  auto s = Clock::now();
  model->forward(x);
  stream.synchronize();
  auto e = Clock::now();
  (void)(e - s);
}
// CHECK-MESSAGES-NOT: warning:
