// CUDA fixed where the program hands a device to its own function
// (model->toDevice(torch::kCUDA)) or constructor (Trainer trainer(
// torch::kCUDA, ...)): the function takes a Device or a
// DeviceType, so the literal decides where its tensors go. Not reported:
// a device variable, a literal under a CUDA test, an argument that is not a
// device parameter, comparisons.
// RUN: not %torchtidy --quiet --checks='-*,torch-hardcoded-device' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Model {
  torch::nn::Linear fc{2, 2};
  void toDevice(torch::DeviceType type) { fc->to(type); }
  void place(const torch::Device &device) { fc->to(device); }
};

struct Trainer {
  Trainer(torch::Device device, int epochs) : device(device), epochs(epochs) {}
  torch::Device device;
  int epochs;
};
struct Counter {
  explicit Counter(int type) : type(type) {}
  int type;
};

template <typename M> void move(M &m, torch::Device d) { m.place(d); }
int device_index(int type) { return type; }
#define TO_GPU(m) (m).toDevice(torch::kCUDA)

void run(Model &model, bool flag) {
  model.toDevice(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: device 'torch::kCUDA' is hard-coded; the program fails on a machine without a GPU
  model.place(torch::Device(torch::kCUDA, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: device 'torch::Device(torch::kCUDA, 1)' is hard-coded
  move(model, torch::Device("cuda:0"));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: device 'torch::Device("cuda:0")' is hard-coded
  TO_GPU(model);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device 'torch::kCUDA' is hard-coded
  auto later = [&] { model.toDevice(c10::DeviceType::CUDA); };
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: device 'c10::DeviceType::CUDA' is hard-coded
  later();

  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  model.place(device);
  if (torch::cuda::is_available())
    model.toDevice(torch::kCUDA);
  int index = device_index(static_cast<int>(torch::kCUDA));
  bool on_gpu = device.type() == torch::kCUDA;
  (void)index;
  (void)on_gpu;
  (void)flag;
}

void train(bool flag) {
  Trainer trainer(torch::kCUDA, 10);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: device 'torch::kCUDA' is hard-coded
  Trainer second{torch::Device(torch::kCUDA, 1), 5};
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: device 'torch::Device(torch::kCUDA, 1)' is hard-coded
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Trainer chosen(device, 10);
  Counter counter(static_cast<int>(torch::kCUDA));
  if (torch::cuda::is_available()) {
    Trainer guarded(torch::kCUDA, 1);
  }
  (void)flag;
}
