#include "data.h"

void Sample::to(const torch::TensorOptions &opts) {
  image = image.to(opts);
  boxes = boxes.to(opts);
}

void place(Sample &s, const torch::TensorOptions &opts) { s.to(opts); }
