// Every clang-tidy suppression comment, with check lists and globs; a
// finding is also silenced by one on the line of one of its notes (here the
// macro's definition).
// RUN: %expect_exit 1 %torchtidy --quiet --checks='-*,torch-hardcoded-device,torch-create-then-move' %s -- %torch_flags > %t.out
// RUN: FileCheck %s -implicit-check-not='warning:' < %t.out
#include <torch/torch.h>

#define TO_GPU(t) (t).cuda() // NOLINT(torch-hardcoded-device)
#define ALSO_GPU(t) (t).cuda()

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    auto a = x.cuda(); // NOLINT
    auto b = x.cuda(); // NOLINT(torch-hardcoded-device)
    auto c = x.cuda(); // NOLINT(torch-*)
    auto d = x.cuda(); // NOLINT(google-*, torch-hard*)
    auto e = x.cuda(); // NOLINT(torch-create-then-move)
    // CHECK: nolint.cpp:[[@LINE-1]]:16: warning: '.cuda()' in module 'Net'
    auto f = x.cuda(); /* NOLINT */
    // NOLINTNEXTLINE(torch-hardcoded-device)
    auto g = x.cuda();
    // NOLINTNEXTLINE
    auto h = x.cuda();
    auto i = x.cuda(); // NOLINTNEXTLINE: the next line only, not this one
    auto j = x.cuda();
    // CHECK: nolint.cpp:[[@LINE-2]]:16: warning: '.cuda()' in module 'Net'
    const char *text = "// NOLINT in a string is no comment"; auto k = x.cuda();
    // CHECK: nolint.cpp:[[@LINE-1]]:74: warning: '.cuda()' in module 'Net'
    // NOLINTBEGIN(torch-hardcoded-device)
    auto l = x.cuda();
    // NOLINTBEGIN
    auto m = x.cuda();
    // NOLINTEND
    auto n = x.cuda();
    // NOLINTEND(torch-hardcoded-device)
    auto o = x.cuda();
    // CHECK: nolint.cpp:[[@LINE-1]]:16: warning: '.cuda()' in module 'Net'
    auto p = TO_GPU(x);
    auto q = ALSO_GPU(x);
    // CHECK: nolint.cpp:[[@LINE-1]]:14: warning: '.cuda()' in module 'Net'
    auto r = ALSO_GPU(x); // NOLINT
    // The create-then-move finding is not the device check's to silence.
    auto s = torch::ones({2}).cuda(); // NOLINT(torch-hardcoded-device)
    // CHECK: nolint.cpp:[[@LINE-1]]:31: warning: 'ones' fills the tensor on the CPU and '.cuda()' then copies it
    (void)text;
    return a + b + c + d + e + f + g + h + i + j + k + l + m + n + o + p + q + r + s;
  }
};
