// Every file a translation unit read: its own includes and the inputs of a
// precompiled header it loaded (through the ASTReader, or for the shared
// PCH from the PCH's own list). The result cache keys entries on them; the
// shared PCH checks they are all system headers.
#pragma once

#include "clang/Basic/FileManager.h"
#include "clang/Frontend/Utils.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>
#include <string>
#include <vector>

namespace torchtidy {

// An #include that found no file, and the directories it was looked for in
// (absolute; for "x.h" the includer's own first): as ccache's "not found"
// entries, what was decided on its absence holds while none of them gains it.
struct MissingHeader {
  std::string Name; // as written in the #include
  std::vector<std::string> Dirs;
};

// Whether one of the directories now holds the header.
bool nowFound(const MissingHeader &M);

class IncludedFiles : public clang::DependencyCollector {
public:
  bool needSystemDependencies() override { return true; }
  bool sawDependency(llvm::StringRef Filename, bool FromModule, bool IsSystem, bool IsModuleFile,
                     bool IsMissing) override;
  // Files seen that are not system headers (the main file included).
  const std::vector<std::string> &userFiles() const { return UserFiles; }
  // The includes that found no file, in the order met.
  const std::vector<MissingHeader> &missing() const { return Missing; }
  // The TU loads a preamble, whose inputs (UserInputs the project headers
  // among them) are known: they are taken as they are, and not asked of the
  // ASTReader, which would stat each of them (some 4700 for torch/torch.h).
  void pchInputsAre(llvm::ArrayRef<std::string> Inputs, llvm::ArrayRef<std::string> UserInputs);
  void attachToASTReader(clang::ASTReader &R) override;
  void attachToPreprocessor(clang::Preprocessor &PP) override;

private:
  const clang::FileManager *Files = nullptr;
  std::vector<std::string> UserFiles;
  std::vector<MissingHeader> Missing;
  bool PchInputsKnown = false;
};

// "size:mtime" of a file, "" when it is gone: how the PCH's inputs, and the
// result cache's included files before their contents, are compared.
std::string fileStamp(llvm::StringRef Path);

// fileStamp memoized for one run, for files torchtidy does not write: the
// result cache and the shared PCH both check LibTorch's headers (thousands),
// and each is stat'ed once.
class FileStamps {
public:
  std::string of(llvm::StringRef Path);

private:
  std::mutex Lock;
  llvm::StringMap<std::string> Memo;
};

} // namespace torchtidy
