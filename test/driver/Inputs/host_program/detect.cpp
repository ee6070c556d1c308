#include "detect.h"

std::vector<torch::Tensor> predict(torch::Tensor images) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < images.size(0); ++i)
    out.push_back((images[i] > 0).nonzero().cpu());
  return out;
}

float draw(const torch::Tensor &boxes) {
  float total = 0;
  for (int64_t i = 0; i < boxes.size(0); ++i)
    total += boxes[i][0].item<float>();
  return total;
}

float drawAll(const std::vector<torch::Tensor> &boxes) {
  float total = 0;
  for (size_t i = 0; i < boxes.size(); ++i)
    total += draw(boxes[i]);
  return total;
}

float drawAny(torch::Tensor boxes) {
  float total = 0;
  for (int64_t i = 0; i < boxes.size(0); ++i)
    total += boxes[i][0].item<float>();
  return total;
}

float score(torch::Tensor boxes) { return boxes.sum().item<float>(); }

float scoreAny(torch::Tensor boxes) { return boxes.sum().item<float>(); }

float (*pickScorer())(torch::Tensor) { return scoreAny; }

std::vector<torch::Tensor> Detector::detect(torch::Tensor images) {
  return rescale(predict(images));
}

std::vector<torch::Tensor> Detector::rescale(std::vector<torch::Tensor> boxes) {
  std::vector<torch::Tensor> out;
  for (size_t i = 0; i < boxes.size(); ++i) {
    torch::Tensor box = boxes[i];
    out.push_back(box * 2);
  }
  return out;
}

std::vector<torch::Tensor> Tracker::track(torch::Tensor images) {
  return rescale(predict(images));
}

std::vector<torch::Tensor> Tracker::rescale(std::vector<torch::Tensor> boxes) {
  std::vector<torch::Tensor> out;
  for (size_t i = 0; i < boxes.size(); ++i) {
    torch::Tensor box = boxes[i];
    out.push_back(box * 2);
  }
  return out;
}
