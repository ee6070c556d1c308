#include "detect.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::Tensor images = torch::randn({4, 3, 8, 8}, device);
  float total = 0;
  Detector detector;
  Tracker tracker;
  for (int step = 0; step < 100; ++step) {
    std::vector<torch::Tensor> boxes = predict(images);
    total += draw(boxes[0]) + drawAll(boxes) + score(boxes.front());
    total += drawAny(boxes[0]) + drawAny(images[0]);
    total += scoreAny(boxes[0]);
    total += detector.detect(images)[0].sum().item<float>();
    total += tracker.track(images)[0].sum().item<float>();
  }
  return total > 0;
}

void Tracker::reset() {}
