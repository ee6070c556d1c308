#pragma once
#include <torch/torch.h>

#include <cstdio>

void drawBoxes(torch::Tensor ids, torch::Tensor boxes);
void logLosses(torch::Tensor losses);
void drawCurve(torch::Tensor values);
void drawEach(torch::Tensor values);
