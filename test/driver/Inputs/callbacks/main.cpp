#include "tiles.h"

#include <iostream>

int main(int argc, char **argv) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear model(8, 8);
  model->to(device);
  auto upscale = [&](torch::Tensor tile) { return model(tile.to(device)).to(torch::kCPU); };
  for (int i = 1; i < argc; ++i) {
    torch::Tensor image = torch::rand({4, 8});
    std::cout << tiled(image, upscale).sizes() << "\n";
    std::cout << tiled(image, [](torch::Tensor tile) { return tile * 2; }).sizes() << "\n";
  }
}
