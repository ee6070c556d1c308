#include "metrics.h"
#include "model.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net net;
  net->to(device);
  std::unique_ptr<Metric> metric = makeMetric();
  torch::Tensor x = torch::randn({8, 4}, device);
  torch::Tensor t = torch::zeros({8}, torch::TensorOptions().dtype(torch::kLong).device(device));
  double sum = 0;
  for (int64_t step = 0; step < 1000; ++step) {
    torch::Tensor out = net->forward(x);
    torch::Tensor again = net(x);
    sum += accuracy(out, t);
    sum += metric->compute(x);
    torch::Tensor s = smooth(x);
    sum += everyHundred(x, step);
  }
  return sum > 0;
}
