#include "detector.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Detector detector(device);
  torch::Tensor image = torch::rand({1, 4}, device);
  for (int i = 0; i < 10; ++i)
    detector.predict(image, false);
  for (int i = 0; i < 10; ++i)
    detector.predict(image, i < 0);
  for (int i = 0; i < 10; ++i)
    detector.predict(image, false, true);
  return 0;
}
