// Output files are written to a temporary file beside the target and
// renamed over it, so a reader sees the old file or the whole new one.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace torchtidy {

// Error describes the cause and names the file; empty on success.
bool writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content, std::string &Error);

} // namespace torchtidy
