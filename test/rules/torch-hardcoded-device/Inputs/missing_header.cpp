// Checked by ../missing_header.test.
#include <torch/torch.h>
#include <opencv2/opencv.hpp>

struct RendererImpl : torch::nn::Module {
  RendererImpl() { fc = register_module("fc", torch::nn::Linear(3, 3)); }
  torch::Tensor forward(torch::Tensor rays) { return fc(rays); }
  cv::Vec3b background;
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Renderer);

#define ON_GPU(m) m->to(torch::kCUDA)

// A template never instantiated: the object's type is dependent.
template <typename M>
void move_later(M &model) {
  model->to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: device 'torch::kCUDA' is hard-coded;
}

int main() {
  Renderer renderer;
  renderer->to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: device 'torch::kCUDA' is hard-coded;
  auto &alias = renderer;
  alias->to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: device 'torch::kCUDA' is hard-coded;
  ON_GPU(renderer);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: device 'torch::kCUDA' is hard-coded;
  renderer->to(torch::kCPU);
  upload_all(torch::kCUDA);
  renderer->forward(torch::ones({2, 3}));
  if (torch::cuda::is_available())
    renderer->to(torch::kCUDA);
  return 0;
}
