// A loop that dispatches on a value of each iteration's own (a command
// interpreter: if (cmd.name == "SAVE") ... else if ..., or a switch on the
// command's kind) runs each arm for the iterations that select it, not on
// every one: a read there is no per-iteration sync. A chain on a value the
// loop does not change picks the same arm every time: reported.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

enum class Kind { Save, Report, Run };
struct Command {
  std::string name;
  Kind kind;
  int steps;
};

float energy(const torch::Tensor &x) { return x.sum().item<float>(); }

void simulate(torch::Tensor x, int steps) {
  for (int s = 0; s < steps; ++s) {
    x = x * 0.5;
    std::cout << x.sum().item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.item()' copies the value to the host
  }
}

void execute(const std::vector<Command> &commands, torch::Tensor x) {
  for (const auto &cmd : commands) {
    if (cmd.name == "SAVE") {
      std::cout << x.item<float>() << "\n";
    } else if (cmd.name == "ENERGY") {
      std::cout << energy(x) << "\n";
    } else if (cmd.name == "RUN") {
      simulate(x, cmd.steps);
    } else {
      std::cout << "unknown command " << x.max().item<float>() << "\n";
    }
    switch (cmd.kind) {
    case Kind::Save:
      std::cout << x.item<float>() << "\n";
      break;
    default:
      break;
    }
    // After the dispatch: every command runs it.
    std::cout << x.min().item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.item()' copies the value to the host
  }
  for (size_t i = 0; i < commands.size(); ++i) {
    const Command &cmd = commands[i];
    if (cmd.kind == Kind::Report)
      std::cout << energy(x) << "\n";
    else if (cmd.kind == Kind::Save)
      std::cout << x.item<float>() << "\n";
  }
}

void train(torch::Tensor x, const std::string &mode, int phase) {
  for (int i = 0; i < 100; ++i) {
    // The same arm on every iteration.
    if (mode == "verbose")
      std::cout << x.item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: '.item()' copies the value to the host
    if (phase == 0)
      std::cout << energy(x) << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: call to 'energy' runs '.item()'
    else if (phase == 1)
      std::cout << x.mean().item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: '.item()' copies the value to the host
  }
}

int main(int argc, char **argv) {
  torch::Device device(argc > 1 ? argv[1] : "cpu");
  torch::Tensor x = torch::ones({4}, device);
  execute({{"SAVE", Kind::Save, 0}, {"RUN", Kind::Run, 10}}, x);
  train(x, "verbose", 0);
}
