// Whether CPU-only can still be decided for a translation unit that did not
// parse fully: Clang drops the statements and declarations it cannot build,
// so the AST may hide a CUDA device, but their tokens are all there.
#pragma once

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/ArrayRef.h"

namespace torchtidy {

// Some code Clang may have dropped has a token that may name a GPU or a
// device chosen at run time: an identifier containing "cuda", "device",
// "gpu" or "nccl", another GPU's device type (kHIP, kMPS, ...),
// is_available, or a string literal naming a GPU device. Comments do not
// count. The code dropped for an error in a user's file is what lies
// between the declarations or statements around it that Clang kept (the
// one that holds it when Clang kept it); for an error it cannot place
// (no location, a preamble's file), every file of the user's.
bool droppedTextMayNameGpu(clang::ASTContext &Ctx, llvm::ArrayRef<clang::SourceLocation> Errors);

} // namespace torchtidy
