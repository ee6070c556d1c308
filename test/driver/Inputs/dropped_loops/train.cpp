// Checked by ../../dropped_loops.test.
#include "mnist_images.h"

#include <torch/torch.h>
#include <tqdm/tqdm.h>

#define EACH(x, v) for (auto &x : v)

void train(torch::nn::Linear model, torch::optim::SGD &optimizer, torch::Device device) {
  // MnistImages is declared by the missing header: the loader's type is
  // unknown, and Clang drops the loop over it.
  auto loader = torch::data::make_data_loader(MnistImages("data").map(torch::data::transforms::Stack<>()), 64);
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (auto &batch : *loader) {
      auto images = batch.data.to(device);
      // CHECK: train.cpp:[[@LINE-1]]:32: warning: '.to(device)' is a blocking copy from host to device, on every iteration
      // CHECK-NEXT: {{^}}      auto images = batch.data.to(device);
      // CHECK: train.cpp:[[@LINE-4]]:5: note: in this loop
      // CHECK-NEXT: {{^}}    for (auto &batch : *loader) {
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model(images), images);
      loss.backward();
      optimizer.step();
      float value = loss.item<float>();
      // CHECK: train.cpp:[[@LINE-1]]:26: warning: '.item()' copies the value to the host
      // A loop over the batch's own tensors is dropped with it, and parsed
      // in a second rewrite: the first brings back its range's type.
      for (auto &t : batch.target.unbind())
        value += t.item<float>();
      // CHECK: train.cpp:[[@LINE-1]]:20: warning: '.item()' copies the value to the host
      // CHECK: train.cpp:[[@LINE-3]]:7: note: in this loop
      // A loop that compiles inside the dropped one is left as written.
      for (auto &p : model->parameters())
        p.grad().zero_();
      EACH(w, model->parameters()) { auto c = w.cpu(); }
      // CHECK: train.cpp:[[@LINE-1]]:49: warning: '.cpu()' copies the tensor to the host
    }
  }
}

// Columns after the header keep their place when the ':' has a space on
// either side; otherwise they move by two, on that line only.
void frames(torch::Tensor x, torch::Device device, int n) {
  for (int b : tqdm::range(0, n)) { auto y = x.slice(0, b, b + 1).to(device); }
  // CHECK: train.cpp:[[@LINE-1]]:67: warning: '.to(device)' is a blocking copy
  for (int b:tqdm::range(0, n)) { auto y = x.slice(0, b, b + 1).to(device); }
  // CHECK: train.cpp:[[@LINE-1]]:65: warning: '.to(device)' is a blocking copy
  // CHECK-NEXT: {{^}}  for (int b:tqdm::range(0, n)) { auto y = x.slice(0, b, b + 1).to(device); }
  for (int b : tqdm::range(0, n)) {
    auto z = x.slice(0, b, b + 1).cuda();
    // CHECK: train.cpp:[[@LINE-1]]:35: warning: '.cuda()' is a blocking copy
  }
}
