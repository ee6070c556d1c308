// Every file a translation unit read: its own includes and, through the
// ASTReader, the inputs of a precompiled header it loaded. The result cache
// keys entries on them; the shared PCH checks they are all system headers.
#pragma once

#include "clang/Frontend/Utils.h"

#include <string>
#include <vector>

namespace torchtidy {

class IncludedFiles : public clang::DependencyCollector {
public:
  bool needSystemDependencies() override { return true; }
  bool sawDependency(llvm::StringRef Filename, bool FromModule, bool IsSystem, bool IsModuleFile,
                     bool IsMissing) override;
  // Files seen that are not system headers (the main file included).
  const std::vector<std::string> &userFiles() const { return UserFiles; }

private:
  std::vector<std::string> UserFiles;
};

// "size:mtime" of a file, "" when it is gone: how the PCH's inputs, and the
// result cache's included files before their contents, are compared.
std::string fileStamp(llvm::StringRef Path);

} // namespace torchtidy
