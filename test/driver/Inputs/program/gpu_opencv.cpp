#include <opencv2/opencv.hpp>
#include <torch/torch.h>

// Without OpenCV's headers Clang drops this loop, body included: only the
// tokens show that the program uses CUDA.
void load(const std::vector<cv::Mat> &images, std::vector<torch::Tensor> &out) {
  for (const cv::Mat &image : images)
    out.push_back(torch::ones({1}).to(torch::kCUDA));
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
