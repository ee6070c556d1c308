// A command interpreter's arms run for the commands that select them: a
// copy in one arm of a dispatch on the iteration's command is no
// per-iteration copy. Outside the dispatch, every command makes it.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Command {
  std::string name;
  double value;
};

void execute(const std::vector<Command> &commands, torch::Tensor &state, torch::Device device) {
  for (const Command &cmd : commands) {
    if (cmd.name == "SET")
      state = torch::full({1}, cmd.value).to(device);
    else if (cmd.name == "ADD")
      state += torch::tensor(cmd.value, torch::TensorOptions().device(device));
    state += torch::ones({1}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: '.to(device)' is a blocking copy from host to device
  }
}

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  torch::Tensor state = torch::zeros({1}, device);
  execute({{"SET", 1.0}, {"ADD", 2.0}}, state, device);
}
