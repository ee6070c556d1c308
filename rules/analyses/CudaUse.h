// Whether the code uses CUDA at all (the CPU-only question), and where it
// tests for CUDA before using it.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace torchtidy {

// A condition that asks whether CUDA can be used: torch::cuda::is_available(),
// torch::cuda::device_count(), at::hasCUDA(), device.is_cuda(), or an unchanged
// local holding one.
bool isCudaAvailabilityTest(const clang::Expr *Cond);

// The analysed code (outside system headers) may put work on a GPU: it names
// a CUDA device, builds a Device at run time (from a flag or a test), calls
// .cuda() or a function of torch::cuda, at::cuda or c10::cuda other than a
// query (is_available, device_count). A device variable nothing reads does
// not count. False means CPU-only code.
bool codeMayUseCuda(clang::ASTContext &Ctx);

// The analysed code lets its callers choose a device: a function other
// files can call takes a Device, DeviceType or TensorOptions, or a class
// has such a public field (an options struct's `device`). In a library
// (no file of the program defines main()), that device comes from outside.
bool takesDeviceFromCaller(clang::ASTContext &Ctx);

// The statement runs only under such a test (an if branch, one arm of a
// conditional operator, or after an if on it that returns or throws).
bool isGuardedByCudaTest(const clang::Stmt &S, clang::ASTContext &Ctx);

} // namespace torchtidy
