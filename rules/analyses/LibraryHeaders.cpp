#include "analyses/LibraryHeaders.h"

namespace torchtidy {

static constexpr llvm::StringLiteral Prefixes[] = {"torch/", "ATen/", "c10/", "caffe2/", "opencv2/"};
static constexpr size_t TorchPrefixes = 4;

llvm::ArrayRef<llvm::StringLiteral> torchHeaderPrefixes() {
  return llvm::ArrayRef(Prefixes).take_front(TorchPrefixes);
}

llvm::ArrayRef<llvm::StringLiteral> libraryHeaderPrefixes() { return Prefixes; }

} // namespace torchtidy
