// CUDA read from the tokens of code that did not compile: Clang drops the
// statements and declarations it cannot build (see DroppedCode.h), so the
// AST may hide a CUDA device or a .cuda() call, but their tokens are there.
#pragma once

#include "analyses/DroppedCode.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace torchtidy {

// Some code Clang may have dropped has a token that may name a GPU or a
// device chosen at run time: an identifier containing "cuda", "device",
// "gpu" or "nccl", another GPU's device type (kHIP, kMPS, ...),
// is_available, or a string literal naming a GPU device. Comments do not
// count. For an error it cannot place, every file of the user's is read.
bool droppedTextMayNameGpu(clang::ASTContext &Ctx, llvm::ArrayRef<clang::SourceLocation> Errors);

// CUDA fixed in Text, none when Text tests for CUDA (is_available,
// device_count, hasCUDA, is_cuda), as code that selects a device does.
// Comments and string literals do not count.
struct CudaInText {
  struct Call {
    clang::SourceLocation Name;     // the 'cuda' or 'to' token
    clang::CharSourceRange Device;  // kCUDA's text for a '.to()'
    // A '%' before it in its statement: it may be under a periodic guard
    // (if (i % N == 0)) that Clang dropped with it.
    bool AfterModulo = false;
  };
  // The calls '.cuda()' and '->cuda()' (or with a number, '.cuda(0)').
  std::vector<Call> CudaCalls;
  // The calls '.to(...)' and '->to(...)' to kCUDA (torch::kCUDA, ...).
  std::vector<Call> Moves;
};
CudaInText cudaInText(const clang::SourceManager &SM, const clang::LangOptions &LO,
                      const TextSpan &Text);

} // namespace torchtidy
