// A project's own trainer, declared in namespace torch as real projects do.
#pragma once
#include <torch/torch.h>

namespace torch {
enum class Mode { TRAIN, EVAL };

template <typename Factory> class Trainer {
 public:
  Trainer(torch::Device device, int epochs) : device_(device), epochs_(epochs) {}
  void to(torch::Device device) { device_ = device; }

 private:
  torch::Device device_;
  int epochs_;
};

struct Factory {};
}  // namespace torch
