#include <opencv2/opencv.hpp>
#include <torch/torch.h>

// The library misses a module of its own: no code of this program is lost.
torch::Tensor to_tensor(const cv::Mat &image) {
  return torch::from_blob(image.data, {image.rows, image.cols, 3}, torch::kByte);
}

int main() {
  torch::nn::Linear model(4, 1);
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int i = 0; i < 10; ++i) {
    torch::Tensor loss = model(torch::randn({8, 4})).sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
    std::cout << loss.item<double>() << "\n";
  }
}
