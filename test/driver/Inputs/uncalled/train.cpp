// Checked by ../../uncalled_program.test.
#include "draw.h"
#include <plot/plot.h>

torch::Device defaultDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

float train(torch::nn::Linear model, torch::Tensor x, torch::Device device) {
  float total = 0;
  auto boxLoss = BoxLoss(plot::weight());
  auto scoreLoss = ScoreLoss(plot::weight());
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto loss = model(x.to(device)).sum();
    // CHECK: train.cpp:[[@LINE-1]]:25: warning: '.to(device)'
    // LIBRARY: train.cpp:[[@LINE-2]]:25: warning: '.to(device)'
    total += loss.item<float>() + scoreLoss(x);
    // CHECK: train.cpp:[[@LINE-1]]:19: warning: '.item()'
    // LIBRARY: train.cpp:[[@LINE-2]]:19: warning: '.item()'
  }
  CurveLoss curveLoss;
  plot::Figure figure(drawCurve(x), curveLoss(x));
  return total;
}
