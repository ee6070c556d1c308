#include <torch/torch.h>
void train(torch::Tensor loss, std::vector<torch::Tensor> batches, torch::Device device) {
  float total = 0;
  for (auto &b : batches) {
    log_metrics(loss);
    cv::Mat frame;
    auto x = b.to(device);
    total += loss.item<float>();
    total += undeclared_helper(x).item<float>();
  }
}
// A parameter of a type from the absent header: the function is invalid,
// its body still parsed.
float show(cv::Mat frame, torch::Tensor loss) {
  float total = 0;
  for (int i = 0; i < 3; ++i)
    total += loss.item<float>();
  return total;
}
// The program can use CUDA: its reads wait for the GPU.
torch::Device pick() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
