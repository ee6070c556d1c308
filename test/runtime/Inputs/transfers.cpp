// Runtime-test program: a loop full of copies that stay on one device (dtype conversions, cat, pow,
// clone, copy_) next to scalar reads, on the device the machine has (the CPU with a CPU LibTorch).
// Only copies between devices and scalar reads may be counted. Line numbers matter to the tests.
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static double accuracy(const torch::Tensor &out, const torch::Tensor &y) {
  auto wide = torch::cat({out.to(torch::kDouble), y.to(torch::kDouble)}, 1); // CPU to CPU copies
  auto err = (wide.select(1, 0) - wide.select(1, 1)).pow(2).to(torch::kFloat); // pow and a conversion
  return err.mean().item<double>(); // line 13: one scalar read per call
}

int main(int argc, char **argv) {
  int iters = 30;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--iters=", 8) == 0) iters = std::atoi(argv[i] + 8);
  torch::manual_seed(0);
  torch::set_num_threads(1);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear net(8, 1);
  net->to(device);
  torch::Tensor data = torch::randn({16, 8}), target = torch::randn({16, 1});
  torch::Tensor staged = torch::empty({16, 8}, torch::TensorOptions().device(device));
  double acc = 0, peak = 0;
  for (int i = 0; i < iters; ++i) {
    auto x = data.to(device); // line 29: a copy only when the device is not the CPU
    staged.copy_(x); // same device
    auto half = staged.clone().to(torch::kHalf).to(torch::kFloat); // conversions on the device
    auto out = net->forward(half);
    acc += accuracy(out, target.to(device)); // line 33: the read inside the helper
    if (i % 3 == 0)
      peak = std::max(peak, out.abs().max().item<double>()); // line 35: iters / 3 reads
  }
  std::printf("transfers: acc %.6f peak %.6f\n", acc, peak);
  return 0;
}
