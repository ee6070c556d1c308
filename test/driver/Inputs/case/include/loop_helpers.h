// Checked by ../../../case_mismatched_include.test: included as
// "Loop_Helpers.h", as a file system that ignores case finds it.
#pragma once
#include <torch/torch.h>
#include <iostream>

inline void report(const std::vector<torch::Tensor> &losses) {
  for (const torch::Tensor &l : losses)
    std::cout << l.item<float>() << "\n";
  // CHECK: include/loop_helpers.h:[[@LINE-1]]:20: warning: '.item()' copies the value to the host
}
