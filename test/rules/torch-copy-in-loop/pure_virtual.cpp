// A call through an interface whose method is pure virtual (a search that
// holds a Model &) runs what the overriders defined in the program do:
// their summaries are used, reported at the call in the loop. Options
// whose initialiser is shown (a dtype only) put the board on the host.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Prediction {
  std::vector<float> probs;
  float value;
};

struct Model {
  virtual Prediction predict(std::vector<int> &board) = 0;
  virtual int size() const = 0;
  virtual ~Model() = default;
};

struct Net : torch::nn::Module, Model {
  explicit Net(torch::Device device) : device(device) { this->to(device); }
  Prediction predict(std::vector<int> &board) override {
    auto opts = torch::TensorOptions().dtype(torch::kInt32);
    auto input = torch::from_blob(board.data(), {(long)board.size()}, opts).to(torch::kFloat32);
    input = input.to(this->device);
    return {{}, 0.5f};
  }
  int size() const override { return 9; }
  torch::Device device;
};

struct Search {
  explicit Search(Model &m) : model_(m) {}
  float run(std::vector<int> board) {
    auto root = model_.predict(board);
    return root.value + float(model_.size());
  }
  Model &model_;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net(device);
  std::vector<int> board(9, 0);
  float total = 0;
  while (total < 100) {
    Search search(net);
    total += search.run(board);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: call to 'run' runs '.to(device)', which is a blocking copy from host to device, on every iteration
    // CHECK-MESSAGES: :35:24: note: virtual call: the summaries of 'predict' and its overriders are used
    // CHECK-MESSAGES: :35:24: note: 'run' calls 'predict' here
    // CHECK-MESSAGES: :25:19: note: the copy '.to(device)' is made here
    // CHECK-MESSAGES: :46:3: note: in this loop
    // The model's size() reads nothing: no finding for it.
    total += float(net.size());
  }
  return int(total);
}
