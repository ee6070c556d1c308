#include "model.h"

#include <torch/nn/parallel/data_parallel.h>

#include <iostream>

// Random data standing in for a real data set.
struct RandomData : torch::data::datasets::Dataset<RandomData> {
  torch::data::Example<> get(size_t) override {
    return {torch::randn({16}), torch::randint(0, 4, {1}).squeeze()};
  }
  torch::optional<size_t> size() const override { return 512; }
};

int main() {
  torch::Device device(torch::kCUDA);  // no CPU fallback
  Classifier model(16, 32, 4);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));

  auto loader = torch::data::make_data_loader(
      RandomData().map(torch::data::transforms::Stack<>()), /*batch_size=*/32);
  for (int epoch = 0; epoch < 3; ++epoch) {
    float total = 0;
    for (auto& batch : *loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      auto output = torch::nn::parallel::data_parallel(model, data);
      auto loss = torch::nn::functional::cross_entropy(output, target);
      loss.backward();
      optimizer.step();
      total += loss.item<float>();
    }
    std::cout << "epoch " << epoch << " loss " << total << "\n";
  }
}
