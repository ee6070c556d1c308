// A tensor already put on a device copies nothing from the host when it is
// moved again: followed through the parameters every call fills with one,
// containers filled with them, the returns of helpers, a module's forward,
// the tuples LibTorch's ops and the code's functions return, private fields
// (containers too) and other.options(). One call passing a host tensor keeps the finding.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

#define MOVE(x, d) (x).to(d)

torch::Device pick() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }

struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  Net() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
};

// Its forward is called through the holder and directly, with targets on
// the device every time: no copy in its loop.
struct CriterionImpl : torch::nn::Module {
  torch::Tensor forward(const torch::Tensor &pred, const std::vector<torch::Tensor> &targets) {
    torch::Tensor sum = torch::zeros({1}, pred.options());
    for (const auto &t : targets)
      sum += (pred - t.to(pred.options())).abs().sum();
    return sum;
  }
};
TORCH_MODULE(Criterion);

// Put into a Sequential, which calls its forward with what the code does
// not show: its copy is reported.
struct StageImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor out = x;
    for (int i = 0; i < 2; ++i)
      out = out + x.to(pick());
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: '.to(device)' copies 'x', which is defined outside the loop
    return out;
  }
};
TORCH_MODULE(Stage);

// A private pool of earlier images, filled only with what getImages is
// given: device tensors, at every call.
class ImagePool {
public:
  torch::Tensor getImages(const torch::Tensor &images) {
    std::vector<torch::Tensor> batch;
    for (int64_t i = 0; i < images.size(0); ++i) {
      if (pool_.size() < 8) {
        pool_.push_back(images[i]);
        batch.push_back(images[i].detach().clone());
      } else {
        torch::Tensor old = pool_[i % 8];
        pool_[i % 8] = images[i];
        batch.push_back(old.detach().clone());
      }
    }
    return torch::stack(batch).to(pick());
  }

private:
  std::deque<torch::Tensor> pool_;
};

// The same pool, which another method fills with host tensors.
class SeededPool {
public:
  void seed() { pool_.push_back(torch::zeros({4})); }
  torch::Tensor getImages(const torch::Tensor &images) {
    std::vector<torch::Tensor> batch;
    for (int64_t i = 0; i < images.size(0); ++i)
      batch.push_back(pool_.empty() ? images[i] : pool_.back());
    return torch::stack(batch).to(pick());
  }

private:
  std::deque<torch::Tensor> pool_;
};

// Every call passes tensors put on the device: no copy in its loop.
static torch::Tensor scaleAll(const std::vector<torch::Tensor> &targets, const torch::Tensor &pred) {
  auto opts = pred.options();
  torch::Tensor sum = torch::zeros({4}, opts);
  for (size_t i = 0; i < targets.size(); ++i) {
    auto box = torch::cat({targets[i].narrow(0, 0, 2) * 2, targets[i].narrow(0, 2, 2)}).to(opts);
    sum += MOVE(box, pred.device());
  }
  return sum;
}

// One call passes a host tensor: its copy is reported.
static torch::Tensor shift(const torch::Tensor &x, torch::Device d) {
  torch::Tensor out = x;
  for (int i = 0; i < 3; ++i)
    out = out + x.to(d);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: '.to(device)' copies 'x', which is defined outside the loop
  return out;
}

static torch::Tensor maskOn(int64_t n, const torch::Device &d) {
  torch::Tensor m = (torch::triu(torch::ones({n, n}, d)) == 1).transpose(0, 1);
  m = m.to(torch::kFloat).masked_fill(m == 0, -1.0);
  return m;
}

// Its images and targets are put on the device before they are returned.
static std::tuple<torch::Tensor, std::vector<torch::Tensor>> collate(const torch::Tensor &batch,
                                                                     torch::Device d) {
  std::vector<torch::Tensor> targets;
  targets.push_back(batch[0].to(d));
  return {batch.to(d), targets};
}

template <typename T> T twice(const T &t) { return t * 2; }

// Its private anchors are put on the device once, in the constructor; its
// offsets are made on the host.
class Decoder {
public:
  explicit Decoder(const torch::Tensor &anchors) : anchors_(anchors.to(pick())) {}
  torch::Tensor decode(const torch::Tensor &boxes) {
    torch::Tensor out = boxes;
    for (int i = 0; i < 4; ++i)
      out = out + anchors_.to(boxes.device()) + offsets_.to(boxes.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: '.to(device)' is a blocking copy from host to device
    return out;
  }

private:
  torch::Tensor anchors_;
  torch::Tensor offsets_ = torch::zeros({4});
};

void train(Net &net, torch::Device device, const std::vector<torch::Tensor> &batches,
           const torch::Tensor &host) {
  std::vector<torch::Tensor> onDevice;
  for (const auto &b : batches)
    onDevice.push_back(b.to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: '.to(device)' is a blocking copy from host to device
  auto hostOpts = host.options();
  Criterion criterion;
  auto pool = std::make_shared<ImagePool>();
  SeededPool seeded;
  torch::nn::Sequential generator(torch::nn::Linear(4, 4));
  Stage stage;
  torch::nn::Sequential seq(stage);
  for (int step = 0; step < 10; ++step) {
    auto x = batches[step].to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: '.to(device)' is a blocking copy from host to device
    auto y = net.forward(x);
    auto again = y.to(device);
    auto viaMacro = MOVE(y.select(0, 0), device);
    auto viaTemplate = twice(x).to(device);
    auto viaLambda = [&] { return y.to(device); }();
    auto loss = scaleAll(onDevice, y) + criterion(y, onDevice) + criterion->forward(y, onDevice);
    auto staged = stage(y) + seq->forward(y);
    auto fake = generator->forward(x);
    auto pooled = pool->getImages(fake) + seeded.getImages(fake);
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: call to 'getImages' runs '.to(device)'

    auto mask = maskOn(4, device).to(torch::kBool).to(device);
    auto shifted = shift(y, device) + shift(host, device);
    for (const auto &t : onDevice)
      auto moved = t.to(device);
    auto [images, targets] = collate(batches[step], device);
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: call to 'collate' runs '.to(device)'
    auto movedImages = images.to(device) + targets[0].to(device);
    auto best = std::get<0>(torch::max(y, 0)).to(device);
    auto [values, index] = torch::max(y, 1);
    auto movedIndex = index.to(device);
    auto hostMax = std::get<0>(torch::max(host, 0)).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: '.to(device)' is a blocking copy from host to device
    auto fromHost = torch::zeros({4}, hostOpts).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: '.to(device)' is a blocking copy from host to device
    auto hostLike = torch::ones_like(host).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: '.to(device)' is a blocking copy from host to device
  }
}
