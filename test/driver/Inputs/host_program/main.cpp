#include "detect.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Tensor images = torch::randn({4, 3, 8, 8}, device);
  float total = 0;
  for (int step = 0; step < 100; ++step) {
    std::vector<torch::Tensor> boxes = predict(images);
    total += draw(boxes[0]) + drawAll(boxes) + score(boxes.front());
    total += drawAny(boxes[0]) + drawAny(images[0]);
    total += scoreAny(boxes[0]);
  }
  return total > 0;
}
