// RUN: not %torchtidy --quiet --checks='-*,torch-unsynchronized-timing' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <chrono>
#include <ctime>

using Clock = std::chrono::steady_clock;
#define NOW() std::chrono::high_resolution_clock::now()

struct NetImpl : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
};
TORCH_MODULE(Net);

torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

double forward_time(Net model, torch::Tensor x) {
  auto start = std::chrono::steady_clock::now();
  auto y = model->forward(x);
  auto end = std::chrono::steady_clock::now();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: clock read after tensor work with no synchronize before it: CUDA runs the work asynchronously, so this measures the kernel launches, not the work; call 'torch::cuda::synchronize()' before reading the clock [torch-unsynchronized-timing]
  // CHECK-MESSAGES: :[[@LINE-4]]:16: note: the clock is read first here
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: the last tensor work before the read is launched here
  return std::chrono::duration<double>(end - start).count();
}

double loop_time(Net model, torch::Tensor x) {
  auto t0 = Clock::now();
  for (int i = 0; i < 100; ++i)
    x = model(x);
  auto elapsed = Clock::now() - t0;
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: clock read after tensor work
  return std::chrono::duration<double>(elapsed).count();
}

// A sync before the work does not wait for it.
double sync_too_early(torch::Tensor a, torch::Tensor b) {
  auto t0 = std::chrono::system_clock::now();
  torch::cuda::synchronize();
  auto c = torch::matmul(a, b);
  auto t1 = std::chrono::system_clock::now();
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: clock read after tensor work
  return std::chrono::duration<double>(t1 - t0).count();
}

// The work in a helper, and in a macro'd clock.
torch::Tensor step(Net model, torch::Tensor x) { return model->forward(x).relu(); }
void helper_work(Net model, torch::Tensor x) {
  auto begin = NOW();
  step(model, x);
  auto finish = NOW();
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: clock read after tensor work
  (void)(finish - begin);
}

void posix_clock(torch::Tensor x) {
  timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  auto y = x.mm(x);
  clock_gettime(CLOCK_MONOTONIC, &b);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: clock read after tensor work
}

void backward_time(Net model, torch::Tensor x) {
  auto loss = model->forward(x).sum();
  auto s = Clock::now();
  loss.backward();
  auto e = Clock::now();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: clock read after tensor work
}

template <typename M> double timed(M &model, torch::Tensor x) {
  auto s = Clock::now();
  model->forward(x);
  auto e = Clock::now();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: clock read after tensor work
  return std::chrono::duration<double>(e - s).count();
}
template double timed<Net>(Net &, torch::Tensor);

void in_lambda(Net model, torch::Tensor x) {
  auto bench = [&] {
    auto s = Clock::now();
    auto y = model->forward(x) * 2;
    auto e = Clock::now();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: clock read after tensor work
    return e - s;
  };
  bench();
}

// Each iteration timed: the read in the loop body.
void per_iteration(Net model, std::vector<torch::Tensor> &xs) {
  for (auto &x : xs) {
    auto s = Clock::now();
    auto y = model->forward(x);
    auto e = Clock::now();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: clock read after tensor work
    std::cout << std::chrono::duration<double>(e - s).count() << "\n";
  }
}

// A sync inside the loop, then more work after it.
void work_after_sync(Net model, torch::Tensor x) {
  auto s = Clock::now();
  for (int i = 0; i < 3; ++i) {
    x = model->forward(x);
    torch::cuda::synchronize();
  }
  auto y = x + 1;
  auto e = Clock::now();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: clock read after tensor work
}
