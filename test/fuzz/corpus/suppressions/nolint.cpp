#include <torch/torch.h>

void f(torch::Tensor T) {
  auto A = T.to(torch::kCUDA); // NOLINT
  auto B = T.to(torch::kCUDA); // NOLINT(torch-hardcoded-device, torch-copy-*)
  // NOLINTNEXTLINE(torch-hardcoded-device)
  auto C = T.to(torch::kCUDA);
  /* NOLINTBEGIN(torch-*) */
  auto D = T.to(torch::kCUDA);
  /* NOLINTEND(torch-*) */
  // NOLINTBEGIN
  const char *S = "NOLINT in a string is code"; // NOLINT(torch-[bad)
  // NOLINTEND
}
