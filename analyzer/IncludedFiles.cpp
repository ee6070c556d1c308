#include "IncludedFiles.h"

#include "llvm/Support/FileSystem.h"

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

void IncludedFiles::pchInputsAre(llvm::ArrayRef<std::string> Inputs) {
  PchInputsKnown = true;
  for (const std::string &F : Inputs)
    addDependency(F);
}

void IncludedFiles::attachToASTReader(clang::ASTReader &R) {
  if (!PchInputsKnown)
    DependencyCollector::attachToASTReader(R);
}

std::string fileStamp(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St))
    return "";
  return std::to_string(St.getSize()) + ":" +
         std::to_string(St.getLastModificationTime().time_since_epoch().count());
}

std::string FileStamps::of(llvm::StringRef Path) {
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Memo.find(Path);
    if (It != Memo.end())
      return It->second;
  }
  std::string S = fileStamp(Path);
  std::lock_guard<std::mutex> G(Lock);
  Memo[Path] = S;
  return S;
}

} // namespace torchtidy
