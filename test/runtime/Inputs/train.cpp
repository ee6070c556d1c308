// Runtime-test program, an MLP on random data. --mode=buggy reads a scalar every iteration (directly and
// through a helper), copies the batch every iteration and never clears the gradients; --mode=fixed does
// none of that; --mode=threads reads scalars from four threads. --end=exit calls exit() in the loop,
// --end=crash dies of SIGSEGV there, --end=abort calls abort(). Line numbers matter to the tests.
#include <torch/torch.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

struct Net : torch::nn::Module {
  Net() : fc1(register_module("fc1", torch::nn::Linear(16, 32))), fc2(register_module("fc2", torch::nn::Linear(32, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))); }
  torch::nn::Linear fc1, fc2;
};

static float readScalar(const torch::Tensor &t) {
  return t.item<float>(); // line 22: the hidden read
}

int main(int argc, char **argv) {
  int iters = 50;
  std::string mode = "buggy", end = "normal";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--iters=", 8) == 0) iters = std::atoi(argv[i] + 8);
    else if (std::strncmp(argv[i], "--mode=", 7) == 0) mode = argv[i] + 7;
    else if (std::strncmp(argv[i], "--end=", 6) == 0) end = argv[i] + 6;
  }
  torch::manual_seed(0);
  torch::set_num_threads(1);
  torch::Device device(torch::kCPU);
  auto net = std::make_shared<Net>();
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.001));
  torch::Tensor data = torch::randn({64, 16}), target = torch::randn({64, 1});

  if (mode == "buggy") {
    float total = 0, seen = 0;
    for (int i = 0; i < iters; ++i) {
      auto x = data.to(device); // line 43: copy every iteration
      auto loss = torch::mse_loss(net->forward(x), target);
      loss.backward(); // line 45: no zero_grad in this loop
      opt.step(); // line 46
      total += loss.item<float>(); // line 47: scalar read every iteration
      seen += readScalar(loss); // line 48: hidden scalar read
      if (end == "exit" && i == iters / 2) { std::printf("exit at %d\n", i); std::exit(3); }
      if (end == "crash" && i == iters / 2) { std::printf("crash at %d\n", i); std::fflush(stdout); std::raise(SIGSEGV); }
      if (end == "abort" && i == iters / 2) { std::printf("abort at %d\n", i); std::fflush(stdout); std::abort(); }
    }
    std::printf("buggy: total %.4f seen %.4f\n", total, seen);
  } else if (mode == "fixed") {
    auto x = data.to(device);
    torch::Tensor total = torch::zeros({});
    for (int i = 0; i < iters; ++i) {
      opt.zero_grad();
      auto loss = torch::mse_loss(net->forward(x), target);
      loss.backward();
      opt.step();
      total += loss.detach();
    }
    std::printf("fixed: total %.4f\n", total.item<float>()); // line 64: one read after the loop
  }
  if (mode == "threads") { // four threads reading scalars at once: the shim is called from all of them
    std::vector<std::thread> pool;
    std::vector<float> sums(4, 0.f);
    for (int t = 0; t < 4; ++t)
      pool.emplace_back([&, t] {
        for (int i = 0; i < iters; ++i)
          sums[t] += (data * float(t)).sum().item<float>(); // line 72: 4 x iters reads
      });
    for (auto &th : pool) th.join();
    std::printf("threads: %.4f %.4f %.4f %.4f\n", sums[0], sums[1], sums[2], sums[3]);
  }
  if (mode == "stress") { // four threads training their own model, ops split over four intra-op threads
    torch::set_num_threads(4);
    torch::Tensor big = torch::randn({256, 256}); // above the grain size: parallel_for splits its ops
    std::vector<std::shared_ptr<Net>> nets; // made here, in order, so that the weights do not depend on timing
    for (int t = 0; t < 4; ++t) nets.push_back(std::make_shared<Net>());
    std::vector<std::thread> pool;
    std::vector<double> sums(4, 0.0);
    for (int t = 0; t < 4; ++t)
      pool.emplace_back([&, t] {
        torch::optim::SGD local(nets[t]->parameters(), torch::optim::SGDOptions(0.001));
        for (int i = 0; i < iters; ++i) {
          local.zero_grad();
          auto loss = torch::mse_loss(nets[t]->forward(data), target) + (big * float(t + 1)).sigmoid().mean();
          loss.backward();
          local.step();
          sums[t] += loss.item<float>(); // line 92: 4 x iters reads
        }
      });
    for (auto &th : pool) th.join();
    std::printf("stress: %.4f %.4f %.4f %.4f\n", sums[0], sums[1], sums[2], sums[3]);
  }
  return 0;
}
