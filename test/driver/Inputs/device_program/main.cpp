#include "loss.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::vector<torch::Tensor> host = {torch::rand({4}), torch::rand({4})};
  for (int step = 0; step < 100; ++step) {
    std::vector<torch::Tensor> targets;
    for (const auto &t : host)
      targets.push_back(t.to(device));
    auto pred = torch::rand({4}, device);
    auto mask = causalMask(4, device).to(torch::kBool).to(device);
    auto loss = boxLoss(pred, targets) + anyLoss(pred, targets) + anyLoss(pred, host);
    loss += pointLoss(pred, targets[0]);
    loss += pointLoss(pred, host[0]);
    float seen = firstValue(host[1]) + firstValue(pred);
  }
  return 0;
}
