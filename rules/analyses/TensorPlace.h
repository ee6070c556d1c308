// Where a tensor provably lives, followed through the code: on the host
// (made or moved there, or computed only from host tensors), or put on a
// device. Both answers are proofs: "don't know" is false for each.
#pragma once

#include "clang/AST/Expr.h"

namespace torchtidy {

// x.cpu(), or x.to() of torch::kCPU or a known CPU device.
bool isCopyToHost(const clang::Expr *E);

// The tensor lives on the host: a copy to the host; a factory given the CPU
// or no device at all (torch::linspace(0, 1, 8)); a LibTorch op whose
// tensor operands all live on the host and that names no other device
// (indexing, views, cos, mul, cat of host tensors, a dtype change); a local
// whose every value does; the result of a function of this file whose every
// return does.
bool isProvablyOnCpu(const clang::Expr *Tensor);

// The tensor was put on a device that is not known to be the CPU: x.to(d),
// x.cuda(), a factory given such a device or options that carry one (or
// options the code does not show, as a getter's), a view of one, or a local
// whose every value is.
bool isPlacedOnDevice(const clang::Expr *Tensor);

// A method of at::Tensor that returns a view sharing the tensor's storage.
bool isViewMethod(llvm::StringRef Name);

// The tensor a view is taken of: t for t[i], t.select(..), t.index(..) and
// the like, which share t's storage and device.
const clang::Expr *viewBase(const clang::Expr *E);

} // namespace torchtidy
