// A batch from LibTorch's data loader holds what its dataset's get() makes:
// the loader neither pins nor moves it, and LibTorch's own transforms
// (Stack, Normalize) keep it where it is. Reads of a batch a host dataset
// gives wait for no GPU, wherever the loader is (a local, a template's
// parameter); a dataset that puts its examples on a device, a Lambda
// transform (the user's code), a batch changed in the loop or a loader of
// LibTorch's own TensorDataset (which holds what it is given) are still
// reported. A local module that is only called and saved computes there.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

struct Images : torch::data::Dataset<Images> {
  torch::data::Example<> get(size_t index) override {
    torch::Tensor img = torch::zeros({3, 8, 8}, torch::kByte).clone();
    return {img.permute({1, 2, 0}), torch::full({1}, static_cast<int64_t>(index))};
  }
  torch::optional<size_t> size() const override { return 16; }
};

struct OnDevice : torch::data::Dataset<OnDevice> {
  explicit OnDevice(torch::Device d) : device(d) {}
  torch::data::Example<> get(size_t) override {
    return {torch::zeros({3}).to(device), torch::zeros({1})};
  }
  torch::optional<size_t> size() const override { return 16; }
  torch::Device device;
};

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(3, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

template <typename Loader> float mean_label(Loader &loader) {
  float total = 0;
  for (auto &batch : loader)
    total += batch.target.sum().template item<float>();
  return total;
}

float train_on_host() {
  Net model;
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  auto images = torch::data::make_data_loader(
      Images().map(torch::data::transforms::Normalize<>(0.5, 0.5)).map(torch::data::transforms::Stack<>()),
      4);
  float total = 0;
  for (auto &batch : *images) {
    auto x = batch.data.to(torch::kFloat);
    auto loss = torch::nll_loss(model(x), batch.target.squeeze());
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    total += loss.item<float>() + batch.target[0].item<float>();
  }
  torch::save(model, "net.pt");
  return total + mean_label(*images);
}

float train() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  float total = 0;

  auto digits = torch::data::make_data_loader(
      torch::data::datasets::MNIST("data").map(torch::data::transforms::Stack<>()), 4);
  for (auto &batch : *digits)
    total += batch.target.max().item<float>();

  auto on_device = torch::data::make_data_loader(
      OnDevice(device).map(torch::data::transforms::Stack<>()), 4);
  for (auto &batch : *on_device)
    total += batch.data.sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: '.item()' copies the value to the host

  auto scaled = torch::data::make_data_loader(
      Images()
          .map(torch::data::transforms::Lambda<torch::data::Example<>>(
              [device](torch::data::Example<> e) { return e; }))
          .map(torch::data::transforms::Stack<>()),
      4);
  for (auto &batch : *scaled)
    total += batch.data.sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: '.item()' copies the value to the host

  auto images = torch::data::make_data_loader(Images().map(torch::data::transforms::Stack<>()), 4);
  for (auto &batch : *images) {
    batch.data = batch.data.to(device);
    total += batch.data.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: '.item()' copies the value to the host
  }

  auto given = torch::data::make_data_loader(
      torch::data::datasets::TensorDataset(torch::zeros({4, 3}, device)), 2);
  for (auto &batch : *given)
    for (auto &example : batch)
      total += example.data.sum().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: '.item()' copies the value to the host
  return total;
}
