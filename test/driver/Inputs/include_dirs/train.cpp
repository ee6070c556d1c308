#include <torch/torch.h>
#include <torchx/metrics.h> // the project's, named much like torch/

// A project built with a hand-written command: LibTorch found through -I.
double train(torch::nn::Linear &net, torch::optim::SGD &opt, const torch::Tensor &x, const torch::Tensor &y) {
  double total = 0;
  for (int i = 0; i < 10; ++i) {
    opt.zero_grad();
    auto loss = torch::mse_loss(net->forward(x), y);
    loss.backward();
    opt.step();
    total += loss.item<double>();
  }
  auto copy = net->clone(); // instantiates torch/nn/cloneable.h's loops
  torch::serialize::OutputArchive archive;
  opt.save(archive); // and torch/optim/serialize.h's
  return total + mean_abs(x);
}

// The program may run on a GPU (else the host-sync check has nothing to say).
torch::Device pickDevice() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
