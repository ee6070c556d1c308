#include "detector.h"

#include <iostream>

static void show_boxes(const torch::Tensor &boxes) { std::cout << boxes << std::endl; }

torch::Tensor Detector::predict(const torch::Tensor &image, bool show, bool verbose) {
  torch::Tensor boxes = net(image);
  if (show)
    show_boxes(boxes);
  if (verbose)
    std::cout << boxes.max().item<float>() << std::endl;
  return boxes;
}
