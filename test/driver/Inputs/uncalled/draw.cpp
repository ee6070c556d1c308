// Checked by ../../uncalled_program.test: helpers of a shared file.
#include "draw.h"

// Called only from drawBoxes, which this program does not run: neither
// does it run these two, a template's instantiation included.
void drawLabel(torch::Tensor ids) {
  for (int64_t b = 0; b < ids.size(0); ++b)
    std::printf("%ld\n", ids[b].item<long>());
  // LIBRARY: draw.cpp:[[@LINE-1]]:33: warning: '.item()' copies the value to the host
}

template <typename Show> void eachBox(torch::Tensor boxes, Show show) {
  for (int64_t b = 0; b < boxes.size(0); ++b)
    show(boxes[b][0].item<float>());
  // LIBRARY: draw.cpp:[[@LINE-1]]:22: warning: '.item()' copies the value to the host
}

// Called from drawBoxes and from logLosses, which runs: it runs.
void drawScore(torch::Tensor scores) {
  for (int64_t b = 0; b < scores.size(0); ++b)
    std::printf("%f\n", scores[b].item<float>());
  // CHECK: draw.cpp:[[@LINE-1]]:35: warning: '.item()' copies the value to the host
  // LIBRARY: draw.cpp:[[@LINE-2]]:35: warning: '.item()' copies the value to the host
}

// The detection programs call it; this program does not.
void drawBoxes(torch::Tensor ids, torch::Tensor boxes) {
  drawLabel(ids);
  drawScore(boxes);
  eachBox(boxes, [](float x) { std::printf("%f\n", x); });
  for (int64_t b = 0; b < ids.size(0); ++b) {
    long id = ids[b].item<long>();
    // LIBRARY: draw.cpp:[[@LINE-1]]:22: warning: '.item()' copies the value to the host
    float x = boxes[b][0].item<float>();
    // LIBRARY: draw.cpp:[[@LINE-1]]:27: warning: '.item()' copies the value to the host
  }
}

// Called through a pointer that main.cpp takes.
void logLosses(torch::Tensor losses) {
  drawScore(losses);
  for (int64_t i = 0; i < losses.size(0); ++i)
    std::printf("%f\n", losses[i].item<float>());
  // CHECK: draw.cpp:[[@LINE-1]]:35: warning: '.item()' copies the value to the host
  // LIBRARY: draw.cpp:[[@LINE-2]]:35: warning: '.item()' copies the value to the host
}

// Called from train.cpp in code Clang drops (its header is missing).
void drawCurve(torch::Tensor values) {
  for (int64_t i = 0; i < values.size(0); ++i)
    std::printf("%f\n", values[i].item<float>());
  // CHECK: draw.cpp:[[@LINE-1]]:35: warning: '.item()' copies the value to the host
  // LIBRARY: draw.cpp:[[@LINE-2]]:35: warning: '.item()' copies the value to the host
}

// Called from a generic lambda in main.cpp, which std::for_each
// instantiates only where the standard library's bodies are parsed.
void drawEach(torch::Tensor values) {
  for (int64_t i = 0; i < values.size(0); ++i)
    std::printf("%f\n", values[i].item<float>());
  // CHECK: draw.cpp:[[@LINE-1]]:35: warning: '.item()' copies the value to the host
  // LIBRARY: draw.cpp:[[@LINE-2]]:35: warning: '.item()' copies the value to the host
}

// train.cpp makes one, but with a type Clang lost (its header is missing),
// and never calls it.
float BoxLoss::operator()(torch::Tensor boxes) {
  float total = 0;
  for (int64_t b = 0; b < boxes.size(0); ++b)
    total += boxes[b].item<float>();
  // LIBRARY: draw.cpp:[[@LINE-1]]:23: warning: '.item()' copies the value to the host
  return total;
}

// train.cpp makes one, with a type Clang lost, and calls it: a call
// Clang drops without a word.
float ScoreLoss::operator()(torch::Tensor scores) {
  float total = 0;
  for (int64_t b = 0; b < scores.size(0); ++b)
    total += scores[b].item<float>();
  // CHECK: draw.cpp:[[@LINE-1]]:24: warning: '.item()' copies the value to the host
  // LIBRARY: draw.cpp:[[@LINE-2]]:24: warning: '.item()' copies the value to the host
  return total;
}

// train.cpp calls one in code Clang drops (its header is missing).
float CurveLoss::operator()(torch::Tensor values) {
  float total = 0;
  for (int64_t b = 0; b < values.size(0); ++b)
    total += values[b].item<float>();
  // CHECK: draw.cpp:[[@LINE-1]]:24: warning: '.item()' copies the value to the host
  // LIBRARY: draw.cpp:[[@LINE-2]]:24: warning: '.item()' copies the value to the host
  return total;
}

// main.cpp hands one to a std::function, which calls it.
float CountLoss::operator()(torch::Tensor counts) {
  float total = 0;
  for (int64_t b = 0; b < counts.size(0); ++b)
    total += counts[b].item<float>();
  // CHECK: draw.cpp:[[@LINE-1]]:24: warning: '.item()' copies the value to the host
  // LIBRARY: draw.cpp:[[@LINE-2]]:24: warning: '.item()' copies the value to the host
  return total;
}
