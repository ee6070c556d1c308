// Checked by ../../uncalled_program.test: helpers of a shared file.
#include "draw.h"

// The detection programs call it; this program does not.
void drawBoxes(torch::Tensor ids, torch::Tensor boxes) {
  for (int64_t b = 0; b < ids.size(0); ++b) {
    long id = ids[b].item<long>();
    // LIBRARY: draw.cpp:[[@LINE-1]]:22: warning: '.item()' copies the value to the host
    float x = boxes[b][0].item<float>();
    // LIBRARY: draw.cpp:[[@LINE-1]]:27: warning: '.item()' copies the value to the host
  }
}

// Called through a pointer that main.cpp takes.
void logLosses(torch::Tensor losses) {
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
