#include "IncludedFiles.h"

namespace torchtidy {

bool IncludedFiles::sawDependency(llvm::StringRef Filename, bool, bool IsSystem, bool IsModuleFile,
                                  bool IsMissing) {
  // A loaded PCH is not a dependency of its own: its inputs are (the
  // ASTReader reports them), and its flags are in the compile command.
  // "<built-in>" and "<command line>" are not files.
  if (IsModuleFile || IsMissing || Filename.starts_with("<"))
    return false;
  if (!IsSystem)
    UserFiles.push_back(Filename.str());
  return true;
}

} // namespace torchtidy
