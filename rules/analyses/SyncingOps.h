// The LibTorch calls that read tensor data back to the host (SyncingOps.def),
// found on their declarations by name, so that they are found with LibTorch's
// headers parsed as system headers with their bodies skipped.
#pragma once

#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace torchtidy {

struct SyncingOp {
  std::string What;                 // "'.item()'", "'torch::nonzero'"
  const char *Detail = nullptr;     // why it waits: "copies the value to the host"
  const clang::Expr *Read = nullptr;  // the tensor read back; no sync when it is on the CPU
};

// A method of at::Tensor or at::TensorBase with this name in the table.
std::optional<SyncingOp> syncingMethod(llvm::StringRef Name);

// A free function of LibTorch's in the table (torch::nn::utils::clip_grad_norm_).
std::optional<SyncingOp> syncingFunction(const clang::FunctionDecl &FD);

// The call, of a declaration in the table, and the tensor it reads. A write
// into a host tensor (cpu_t[i] = x, cpu_t.copy_(x)) counts only when the
// destination is provably on the CPU.
std::optional<SyncingOp> syncingCall(const clang::CallExpr &Call);

// The same writes the other way: host data into a tensor put on a device
// (dev[b] = host[i], dev.copy_(host), dev.index_put_(i, host)), a blocking
// host-to-device copy; what it is called in messages, none otherwise.
std::optional<std::string> hostToDeviceWrite(const clang::CallExpr &Call);

} // namespace torchtidy
