#include "camera.h"
#include <torch/torch.h>

// camera.h is missing: it may hand out tensors on a GPU.
torch::Tensor to_tensor(const cv::Mat &image) {
  return torch::from_blob(image.data, {image.rows, image.cols, 3}, torch::kByte);
}

void train(torch::nn::Linear &model) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    torch::Tensor loss = model(torch::randn({8, 4})).sum();
    opt.zero_grad();
    loss.backward();
    // The caller's model: where it lives is not shown here.
    opt.step();
    std::cout << loss.item<double>() << "\n";
  }
}
