// The libraries whose headers are never the user's code, named by how they
// are included: LibTorch's, and OpenCV's (the library LibTorch programs use
// most, often found through a hand-written -I too, as are the optional
// modules a partial install lacks). Both the standalone tool and the
// clang-tidy plugin make them system headers wherever they are found.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace torchtidy {

// Include-name prefixes of LibTorch's headers ("torch/", "ATen/", ...).
llvm::ArrayRef<llvm::StringLiteral> torchHeaderPrefixes();
// Those and the other libraries'.
llvm::ArrayRef<llvm::StringLiteral> libraryHeaderPrefixes();

} // namespace torchtidy
