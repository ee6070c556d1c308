// A program that cannot use CUDA copies nothing to a GPU: nothing names a
// CUDA device, builds a Device at run time or asks whether CUDA is available.
// RUN: %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
// The same code with a device string from the command line reports.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags -DFROM_ARGS \
// RUN:   | FileCheck %s -check-prefix=CUDA -implicit-check-not='warning:'
// Without a main() the file is a library, whose callers choose the device
// train takes: it reports.
// RUN: not %torchtidy --quiet --checks='-*,torch-copy-in-loop' %s -- %torch_flags -DLIBRARY \
// RUN:   | FileCheck %s -check-prefix=CUDA -implicit-check-not='warning:'
#include <torch/torch.h>

void train(std::vector<torch::Tensor> &batches, torch::Device device) {
  for (torch::Tensor &b : batches) {
    torch::Tensor x = b.to(device);
    // CUDA: :[[@LINE-1]]:25: warning: '.to(device)' is a blocking copy from host to device, on every iteration; on a CUDA device pin the batch (pin_memory() throws on a CPU-only LibTorch: if (device.is_cuda()) batch = batch.pin_memory();) and pass non_blocking=true
  }
}

#ifdef FROM_ARGS
int main(int argc, char **argv) {
  std::vector<torch::Tensor> batches(3, torch::ones({2}));
  train(batches, torch::Device(argv[1]));
}
#elif !defined(LIBRARY)
int main() {
  std::vector<torch::Tensor> batches;
  torch::load(batches, "batches.pt");  // saved elsewhere: where they live is not shown
  train(batches, batches[0].device());
}
#endif
// CHECK-MESSAGES-NOT: warning:
