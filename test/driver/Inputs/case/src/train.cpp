// Checked by ../../../case_mismatched_include.test.
#include "Loop_Helpers.h"
// CHECK: src/train.cpp:[[@LINE-1]]:1: error: 'Loop_Helpers.h' file not found (analysed as '{{.*}}include/loop_helpers.h', which only a file system that ignores case finds)

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::vector<torch::Tensor> losses{torch::ones({1}, device)};
  report(losses);
}
