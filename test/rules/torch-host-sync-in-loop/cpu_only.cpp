// A program that cannot use CUDA waits for no GPU: nothing names a CUDA
// device or builds a Device at run time.
// RUN: %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
// The same code with a CUDA device chosen at run time reports (the last
// function is compiled in).
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags -DWITH_CUDA \
// RUN:   | FileCheck %s -check-prefix=CUDA -implicit-check-not='warning:'
// Asking whether CUDA is available, and a CUDA device made but never read,
// put no tensor on a GPU: still CPU-only. Reading the device reports.
// RUN: %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags -DPROBES_CUDA \
// RUN:   | FileCheck %s -allow-empty -check-prefix=CHECK-MESSAGES -implicit-check-not='warning:'
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags -DPROBES_CUDA -DUSES_PROBE \
// RUN:   | FileCheck %s -check-prefix=CUDA -implicit-check-not='warning:'
// Without its main() the file is a library, whose callers choose the
// device print_all takes: it reports.
// RUN: not %torchtidy --quiet --checks='-*,torch-host-sync-in-loop' %s -- %torch_flags -DLIBRARY \
// RUN:   | FileCheck %s -check-prefix=CUDA -implicit-check-not='warning:'
#include <torch/torch.h>
#include <iostream>

float mean_loss(const std::vector<torch::Tensor> &losses) {
  float sum = 0;
  for (const torch::Tensor &l : losses)
    sum += l.item<float>();
  // CUDA: :[[@LINE-1]]:14: warning: '.item()' copies the value to the host
  return sum / losses.size();
}

void print_all(const std::vector<torch::Tensor> &xs, torch::Device device) {
  torch::Device copy = device;  // a copy: says nothing about CUDA
  for (const torch::Tensor &x : xs)
    std::cout << x.to(copy);
  // CUDA: :[[@LINE-1]]:15: warning: streaming a tensor with '<<'
}

#ifndef LIBRARY
int main() {
  std::vector<torch::Tensor> xs;
  torch::load(xs, "losses.pt");  // saved elsewhere: where they live is not shown
  print_all(xs, xs[0].device());
  return mean_loss(xs) > 0 ? 0 : 1;
}
#endif

#ifdef WITH_CUDA
torch::Device pick_device() { return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU; }
#endif

#ifdef PROBES_CUDA
void report_cuda() {
  std::cout << "with cuda " << (torch::cuda::is_available() ? "yes" : "no") << "\n";
  if (torch::cuda::is_available() && torch::cuda::device_count() > 0) {
    torch::Device probe(torch::kCUDA);
#ifdef USES_PROBE
    std::cout << probe << "\n";
#endif
  }
}
#endif
// CHECK-MESSAGES-NOT: warning:
