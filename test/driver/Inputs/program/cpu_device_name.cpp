#include <torch/torch.h>

// The program's device, fixed to the CPU: names may say "device".
const torch::Device g_device = torch::kCPU;

torch::Tensor to_device(const torch::Tensor &t) { return t.to(g_device); }

// <fstream> is not included: Clang drops this statement, whose tokens name
// no GPU, and keeps the rest.
void save(const std::string &path, double loss) {
  std::ofstream out(path);
  std::cout << path << loss << "\n";
}

// Dropped too: the device it names is a variable the AST holds, the CPU.
void dump(const torch::Tensor &t, torch::Device device) {
  std::ofstream("t.txt") << t.to(device);
}

int main() {
  auto kind = torch::kCPU;
  torch::Device host = kind;
  torch::nn::Linear model(4, 1);
  model->to(g_device);
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    torch::Tensor loss = model(to_device(torch::randn({8, 4}))).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    save("loss.txt", loss.item<double>());
    dump(loss, host);
  }
}
