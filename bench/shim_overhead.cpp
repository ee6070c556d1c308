// The shim's overhead benchmark's program: an MLP trained on random data on
// the CPU, a few hundred iterations, the usual loop (zero_grad, forward,
// loss, backward, step, loss.item() for logging). Prints the loop's time in
// seconds; bench/shim_overhead.sh runs it with and without the shim.
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  int iters = argc > 1 ? std::atoi(argv[1]) : 300;
  torch::manual_seed(0);
  torch::set_num_threads(1);
  torch::nn::Sequential net(torch::nn::Linear(784, 256), torch::nn::ReLU(), torch::nn::Linear(256, 128),
                            torch::nn::ReLU(), torch::nn::Linear(128, 10));
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  torch::Tensor x = torch::randn({64, 784}), y = torch::randint(0, 10, {64});
  torch::Device device(torch::kCPU);
  float last = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) {
    opt.zero_grad();
    auto out = net->forward(x.to(device));
    auto loss = torch::nn::functional::cross_entropy(out, y.to(device));
    loss.backward();
    opt.step();
    last = loss.item<float>();
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%.6f %.4f\n", s, last);
  return 0;
}
