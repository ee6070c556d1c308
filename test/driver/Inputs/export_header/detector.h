#pragma once
#include <torch/torch.h>
#include "vision_export.h"

class VISION_EXPORT Detector {
public:
  explicit Detector(torch::Device device);
  torch::Tensor detect(const torch::Tensor &frame);
  VISION_DEPRECATED int legacy() const { return 0; }

private:
  torch::Device device_;
};
