// Checked by ../dropped_code.test.
#include <torch/torch.h>
#include <tqdm/tqdm.h>

void render(torch::Tensor frame, int n) {
  tqdm::Camera cam;
  auto first = tqdm::look(cam).to(torch::kCUDA);  // before the loop
  for (int i = 0; i < n; ++i) {
    frame = frame + tqdm::look(cam).to(torch::kCUDA);
    // CHECK: :[[@LINE-1]]:37: warning: '.to(torch::kCUDA)' is a blocking copy from host to device, on every iteration
    // DROPPED: :[[@LINE-2]]:37: note: read from code that did not compile, which Clang left out
    // CHECK: :[[@LINE-4]]:3: note: in this loop
    tqdm::Meter meter(frame.cuda());
    // CHECK: :[[@LINE-1]]:29: warning: '.cuda()' is a blocking copy from host to device, on every iteration
    // DROPPED: :[[@LINE-2]]:29: note: read from code that did not compile, which Clang left out
    if (i % 10 == 0)
      tqdm::wrap(frame.to(torch::kCUDA));
  }
  auto last = tqdm::look(cam).to(torch::kCUDA);  // after the loop
  (void)first;
  (void)last;
}
