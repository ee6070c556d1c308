// Templates that no code instantiates (real projects written for another
// LibTorch have many): the tensor's type depends on a template parameter, so
// Clang resolves no call, and the member's name is what is left. A template
// that is instantiated is reported once, in its instantiation.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
#include <torch/torch.h>

template <typename T> float mean_loss(const std::vector<T> &losses) {
  float sum = 0;
  for (const auto &l : losses)
    sum += l.template item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: '.item()' copies the value to the host and waits for the GPU on every iteration
  return sum / losses.size();
}

template <typename Batch> void to_device(std::vector<Batch> &batches, torch::Device device) {
  for (auto &b : batches) {
    b = b.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '.to(device)' is a blocking copy from host to device, on every iteration
    auto g = b.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.cuda()' is a blocking copy from host to device, on every iteration
    auto h = b.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.cpu()' copies the tensor to the host and waits for the GPU on every iteration
    auto k = b.to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.to(torch::kCPU)' copies the tensor to the host
    auto s = b.item();
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.item()' copies the value to the host
    auto f = b.to(torch::kFloat);  // a dtype change
    auto n = b.size(0);
  }
  auto once = batches.front().template item<float>();  // not in a loop
}

// A member of a dependent base, and a tensor member used with a dependent argument.
template <typename Net> struct Trainer : Net {
  torch::Tensor last;
  template <typename D> void log_all(D device) {
    while (true) {
      std::cout << this->loss.template item<double>();
      // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '.item()' copies the value to the host
      auto w = last.to(device);  // the argument's type is unknown: no finding
      if (this->done())
        break;
    }
  }
  void run() {
    for (int i = 0; i < 3; ++i)
      this->output.nonzero();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '.nonzero()' reads the data back to size its result
  }
};

// A member template of a class template that is instantiated, the member
// template never (its caller did not compile): the batch's type is unknown.
template <typename Model> struct Fitter {
  torch::Device device = torch::kCPU;
  torch::Device *slot = &device;
  template <typename Loader> void train(Model &model, Loader &loader) {
    for (auto &batch : loader) {
      auto data = batch.data.to(device);
      // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: '.to(device)' is a blocking copy from host to device
      auto target = batch.target.to(slot->str());
      // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: '.to(device)' is a blocking copy from host to device
      torch::Tensor prediction = model->forward(data).argmax(1);
      long correct = prediction.eq(target).sum().template item<long>();
      // CHECK-MESSAGES: :[[@LINE-1]]:59: warning: '.item()' copies the value to the host
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'torch::nn::utils::clip_grad_norm_' reads the total norm back to the host
      auto target_cpu = target.to(torch::kCPU);
      // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: '.to(torch::kCPU)' copies the tensor to the host
      for (long i = 0; i < correct; ++i)
        std::cout << target_cpu[i].template item<long>() << target_cpu.select(0, i).item();
      // on the host already: no finding
    }
  }
  // Instantiated below: found once, in the instantiation.
  template <typename Loader> float check(Loader &loader) {
    float sum = 0;
    for (auto &batch : loader)
      sum += batch.data.sum().template item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: '.item()' copies the value to the host
    return sum;
  }
};
template struct Fitter<torch::nn::Linear>;
struct Batch {
  torch::Tensor data;
};
float checked(Fitter<torch::nn::Linear> &f, std::vector<Batch> &batches) { return f.check(batches); }

// Instantiated: found once, in the instantiation.
template <typename T> float used(const std::vector<T> &losses) {
  float sum = 0;
  for (const auto &l : losses)
    sum += l.template item<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: '.item()' copies the value to the host
  return sum;
}
struct Holder {
  torch::Tensor loss, output;
  bool done() const { return true; }
};
template <typename M> struct Runner {
  M m;
  void run() {
    for (int i = 0; i < 3; ++i)
      m.loss.item();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: '.item()' copies the value to the host
  }
  void unused() {
    for (int i = 0; i < 3; ++i)
      m.output.cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: '.cpu()' copies the tensor to the host
  }
};
float caller(std::vector<torch::Tensor> &v) {
  Runner<Holder> r;
  r.run();
  return used(v);
}

// A helper of the code given a dependent argument: the only function of
// that name, so its summary holds (its read of its parameter waits unless
// the argument is on the host, unknowable here); an overloaded name does not.
inline float to_image(torch::Tensor t) { return t.detach().cpu().sum().item<float>(); }
inline float overloaded(torch::Tensor t) { return t.cpu().sum().item<float>(); }
inline float overloaded(float f) { return f; }
template <typename Renderer> void render_all(Renderer &r, int n) {
  for (int i = 0; i < n; ++i) {
    auto result = r.render(i);
    to_image(result.rgb);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: call to 'to_image' runs '.cpu()'
    overloaded(result.depth);
  }
}

// The program may run on a GPU (else the copy and sync checks have nothing to say).
torch::Device pick_device() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
