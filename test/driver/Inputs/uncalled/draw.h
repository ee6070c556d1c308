#pragma once
#include <torch/torch.h>

#include <cstdio>

void drawBoxes(torch::Tensor ids, torch::Tensor boxes);
void logLosses(torch::Tensor losses);
void drawCurve(torch::Tensor values);
void drawEach(torch::Tensor values);

// Losses called as function objects.
struct BoxLoss {
  float operator()(torch::Tensor boxes);
};
struct ScoreLoss {
  float operator()(torch::Tensor scores);
};
struct CurveLoss {
  float operator()(torch::Tensor values);
};
struct CountLoss {
  float operator()(torch::Tensor counts);
};
