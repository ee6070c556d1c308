// torch::tensor(values, options) builds the tensor on the host and copies it
// to the device its options set: in a loop, or in a helper called there, it
// is a copy on every iteration. Without a device in the options, with the
// CPU's, or for factories that fill on the device (zeros, randn) or wrap
// memory already there (from_blob), nothing is copied.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Camera {
  torch::Tensor position;
};

static void place(Camera &camera, float x, float y, const torch::Device device) {
  camera.position = torch::tensor({x, y}, torch::TensorOptions().dtype(torch::kFloat).device(device));
}

template <typename T> torch::Tensor fromValues(const std::vector<T> &v, torch::Device device) {
  return torch::tensor(v, torch::dtype(torch::kFloat).device(device));
}

void frames(Camera &camera, std::vector<float> &v, float *gpu_buffer) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto opts = torch::TensorOptions().device(device);
  auto host = torch::TensorOptions().dtype(torch::kFloat);
  torch::Device cpu(torch::kCPU);
  for (int frame = 0; frame < 100; ++frame) {
    place(camera, 1.0f * frame, 2.0f, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'place' runs 'torch::tensor(values, options)', which builds the tensor on the host and makes a blocking copy of it to the device, on every iteration
    // CHECK-MESSAGES: :15:21: note: the copy 'torch::tensor(values, options)' is made here
    auto a = torch::tensor(v, opts);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'torch::tensor(values, options)' builds the tensor on the host
    auto b = torch::tensor({1, 2, 3}, torch::device(torch::kCUDA));
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'torch::tensor(values, options)' builds the tensor on the host
    auto c = fromValues(v, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: call to 'fromValues' runs 'torch::tensor(values, options)'
    auto d = torch::tensor(v);
    auto e = torch::tensor(v, host);
    auto f = torch::tensor(v, torch::TensorOptions().device(cpu));
    auto g = torch::zeros({3}, opts);
    auto h = torch::from_blob(gpu_buffer, {3}, opts);
    auto i = torch::tensor(v, torch::dtype(torch::kInt64));
  }
}
