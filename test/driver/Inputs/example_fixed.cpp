// examples/src/model.cpp and train.cpp with their findings corrected.
#include <torch/torch.h>

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl(int64_t in, int64_t hidden, int64_t classes)
      : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(hidden, classes))) {
    bias = register_parameter("bias", torch::zeros({classes}));
  }
  torch::Tensor forward(torch::Tensor x) {
    auto keep = torch::ones({x.size(1)}, x.options());
    x = torch::relu(fc1->forward(x * keep));
    return fc2->forward(x) + bias;
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::Tensor bias;
};
TORCH_MODULE(Classifier);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Classifier model(16, 32, 4);
  model->to(device);
  auto output = model->forward(torch::randn({32, 16}, torch::TensorOptions().device(device)));
  return output.numel() > 0 ? 0 : 1;
}
