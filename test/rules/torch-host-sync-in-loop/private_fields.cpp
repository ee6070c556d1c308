// A private field of a class whose methods are all in view holds what its
// initialisers and assignments give it: made on the host, a read from it
// waits for no GPU. A field that may be given a device tensor, that others
// may write (public, a friend), or whose class has a method defined in
// another file is still reported.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#define CELL(t, x, y) (t)[x][y].item<int>()

class Grid {
public:
  Grid() : cells_(torch::zeros({4, 4}, torch::kFloat)) { this->cells_[1][2] = 3; }
  bool isFree(int x, int y) { return CELL(cells_, x, y) != 3; }
  float weight(int i) { return weights_[i].item<float>(); }
  float score(int i) { return scores_[i].item<float>(); }
  float given(int i) { return given_[i].item<float>(); }
  void reset() {
    cells_.zero_();
    weights_ = weights_.to(torch::kDouble);
  }
  void toDevice(torch::Device d) { scores_ = scores_.to(d); }
  void set(const torch::Tensor &t) { given_ = t; }
  void declaredOnly();  // defined in no file of the program

private:
  torch::Tensor cells_;
  torch::Tensor weights_ = torch::ones({4});
  torch::Tensor scores_ = torch::zeros({4});
  torch::Tensor given_;
};

class Friendly {
  friend void touch(Friendly &);
  torch::Tensor t_ = torch::zeros({4});

public:
  float read(int i) { return t_[i].item<float>(); }
};

struct Open {
  torch::Tensor t = torch::zeros({4});
  float read(int i) { return t[i].item<float>(); }
};

template <typename T> struct Box {
  float read(int i) { return held_[i].template item<T>(); }

private:
  torch::Tensor held_ = torch::zeros({4});
};

float play(Grid &g, Friendly &f, Open &o) {
  Box<float> b;
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  g.toDevice(device);
  float total = 0;
  for (int step = 0; step < 100; ++step) {
    total += g.isFree(step % 4, 1) + g.weight(1);
    total += g.score(2);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: call to 'score' runs '.item()'
    total += g.given(3);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: call to 'given' runs '.item()'
    total += f.read(0);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: call to 'read' runs '.item()'
    total += o.read(0);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: call to 'read' runs '.item()'
    total += b.read(1);
    auto lambda = [&] { return g.isFree(0, 0); };
    total += lambda();
  }
  return total;
}
