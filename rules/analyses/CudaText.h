// Whether CPU-only can still be decided for a translation unit that did not
// parse fully: Clang drops the bodies it cannot parse, so the AST may hide a
// CUDA device, but the tokens of the user's files are all there.
#pragma once

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"

namespace torchtidy {

// Some file of the user's (every file outside system headers, those of a
// loaded preamble included) has a token that may name a GPU or a device
// chosen at run time: an identifier containing "cuda", "device", "gpu" or
// "nccl", another GPU's device type (kHIP, kMPS, ...), is_available, or a
// string literal naming a GPU device. Comments do not count.
bool userTextMayNameGpu(const clang::SourceManager &SM, const clang::LangOptions &LO);

} // namespace torchtidy
