// Checked by ../dropped_code.test.
#include <torch/torch.h>
#include <tqdm/tqdm.h>

#include <memory>

// A range-for over the missing library's range: Clang drops it, body and
// all, and it is parsed again written as for (int b = tqdm::range(..);;),
// so that its body's calls are in the AST.
void train(torch::Tensor x_train, torch::Tensor y_train, int nb_batch) {
  for (int b : tqdm::range(nb_batch)) {
    auto x = x_train.index({torch::indexing::Slice(b, b + 1)}).cuda();
    // CHECK: :[[@LINE-1]]:64: warning: '.cuda()' puts the tensor on the current CUDA device (cuda:0) whatever device the program selected, and fails on a machine without a GPU; use '.to(<device>)' with the program's device variable [torch-hardcoded-device]
    auto p = std::make_shared<torch::Tensor>(y_train);
    auto y = p->cuda();
    // CHECK: :[[@LINE-1]]:17: warning: '.cuda()' puts the tensor
    // Neither a comment, x.cuda(), nor a string counts.
    tqdm::log("x.cuda()");
  }
}

// C++'s Tensor::cuda() takes no argument; code written after Python's
// '.cuda(0)' does not compile, and the call Clang could not build is
// reported all the same (only the run without the header has it).
#if !__has_include(<tqdm/tqdm.h>)
void train_on(torch::Tensor x, int nb_batch) {
  for (int b : tqdm::range(nb_batch))
    x = x.cuda(0) + x.cuda(b);
  // DROPPED: :[[@LINE-1]]:11: warning: '.cuda()' puts the tensor
  // DROPPED: :[[@LINE-2]]:11: note: read from code that did not compile, a call Clang could not build
  // DROPPED: :[[@LINE-3]]:23: warning: '.cuda()' puts the tensor
  // DROPPED: :[[@LINE-4]]:23: note: read from code that did not compile, a call Clang could not build
}
#endif

// A declaration of a missing type: Clang drops the statement.
void measure(torch::Tensor y) {
  tqdm::Meter meter(y.cuda());
  // CHECK: :[[@LINE-1]]:23: warning: '.cuda()' puts the tensor
  // DROPPED: :[[@LINE-2]]:23: note: read from code that did not compile
}

// A declaration Clang keeps without its initialiser; a call of a missing
// function that it keeps with its arguments, and kept code: their
// '.cuda()' is in the AST, and reported once.
void keep(torch::Tensor x) {
  auto wrapped = tqdm::wrap(x.cuda());
  // CHECK: :[[@LINE-1]]:31: warning: '.cuda()' puts the tensor
  // DROPPED: :[[@LINE-2]]:31: note: read from code that did not compile
  show(x.cuda());
  // CHECK: :[[@LINE-1]]:10: warning: '.cuda()' puts the tensor
  auto kept = x.cuda();
  // CHECK: :[[@LINE-1]]:17: warning: '.cuda()' puts the tensor
}

// '.to(torch::kCUDA)' there too, and after a local whose type is in the
// missing header: Clang drops every use of it, with no error of its own.
void render(torch::Tensor frame, int n) {
  using torch::kCUDA;
  tqdm::Camera cam;
  auto moved = tqdm::look(cam).to(torch::kCUDA);
  // CHECK: :[[@LINE-1]]:35: warning: device 'torch::kCUDA' is hard-coded; the program fails on a machine without a GPU
  // DROPPED: :[[@LINE-2]]:35: note: read from code that did not compile, which Clang left out
  for (int i = 0; i < n; ++i)
    frame = frame.to(kCUDA) + tqdm::look(cam).to(at::kCUDA, torch::kHalf);
  // CHECK: :[[@LINE-1]]:22: warning: device 'kCUDA' is hard-coded
  // CHECK: :[[@LINE-2]]:50: warning: device 'at::kCUDA' is hard-coded
  // DROPPED: :[[@LINE-3]]:50: note: read from code that did not compile, which Clang left out
  frame = frame.to(torch::kCPU) + frame.to(torch::kCUDA).sum();
  // CHECK: :[[@LINE-1]]:44: warning: device 'torch::kCUDA' is hard-coded
  (void)moved;
}

// Device-selection sites: code under a CUDA test, and dropped code that
// tests for CUDA itself.
void select(torch::Tensor x, int n) {
  if (torch::cuda::is_available()) {
    for (int b : tqdm::range(n))
      x = x.cuda();
  }
  tqdm::Meter chosen(torch::cuda::is_available() ? x.cuda() : x);
}

// In a module's code, as for a '.cuda()' the AST has.
struct NetImpl : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    for (int b : tqdm::range(2))
      x = x.cuda();
    // CHECK: :[[@LINE-1]]:13: warning: '.cuda()' in module 'NetImpl' puts the tensor
    // MODULES: :[[@LINE-2]]:13: warning: '.cuda()' in module 'NetImpl' puts the tensor
    return x;
  }
};
