// Checked by ../broken_dataset.test.
#include <torch/torch.h>
#include <vendor_sdk/image.hpp>

// torch::from_blob of an image whose type is unknown here: every function
// of that name is a LibTorch factory, and the broken arguments stand where
// none of them takes a device, so the tensor (cloned, permuted) is made on
// the host, and so is the Example Clang keeps only as {img, label}.
struct Images : torch::data::Dataset<Images> {
  torch::data::Example<> get(size_t index) override {
    vendor::Image im = vendor::read(index);
    torch::Tensor img = torch::from_blob(im.data, {im.rows, im.cols, 3}, torch::kByte).clone();
    img = img.permute({2, 0, 1});
    return {img, torch::full({1}, 1)};
  }
  torch::optional<size_t> size() const override { return 8; }
};

// Here the broken argument stands where from_blob takes its options.
struct Frames : torch::data::Dataset<Frames> {
  torch::data::Example<> get(size_t index) override {
    vendor::Image im = vendor::read(index);
    return {torch::from_blob(im.data, {im.rows, im.cols}, im.options), torch::full({1}, 1)};
  }
  torch::optional<size_t> size() const override { return 8; }
};

float mean(torch::Device device) {
  auto images = torch::data::make_data_loader(Images().map(torch::data::transforms::Stack<>()), 2);
  auto frames = torch::data::make_data_loader(Frames().map(torch::data::transforms::Stack<>()), 2);
  float total = 0;
  for (auto &batch : *images)
    total += batch.data.to(torch::kFloat).mean().item<float>();
  for (auto &batch : *frames)
    total += batch.data.to(torch::kFloat).mean().item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: '.item()' copies the value to the host
  return total + (device.is_cuda() ? 1 : 0);
}

torch::Device gpu() { return torch::Device(torch::kCUDA); }
