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
  // The 'cuda' tokens of the calls '.cuda()' and '->cuda()' (or with a
  // number, '.cuda(0)').
  std::vector<clang::SourceLocation> CudaCalls;
  // The calls '.to(...)' and '->to(...)' to kCUDA (torch::kCUDA, ...):
  // the 'to' token and the device's text.
  struct Move {
    clang::SourceLocation To;
    clang::CharSourceRange Device;
  };
  std::vector<Move> Moves;
};
CudaInText cudaInText(const clang::SourceManager &SM, const clang::LangOptions &LO,
                      const TextSpan &Text);

} // namespace torchtidy
