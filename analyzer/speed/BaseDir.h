// The base directory of the remote result cache: entries name the files
// under it relative to it, so that they hit in another checkout of the
// project (as ccache's base_dir). Paths outside it (system headers) stay
// absolute.
#pragma once

#include "findings/Finding.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace torchtidy {

class BaseDir {
public:
  // Dir: an absolute directory.
  explicit BaseDir(llvm::StringRef Dir);
  const std::string &dir() const { return Dir; }
  // An absolute path under the directory, relative to it; others unchanged.
  std::string relative(llvm::StringRef Path) const;
  // The inverse of relative(): a relative path is made absolute under it.
  std::string absolute(llvm::StringRef Path) const;
  // For a key: every occurrence of the directory in a path or compiler
  // argument ("-I/base/include") replaced by a placeholder.
  std::string forKey(llvm::StringRef Arg) const;

private:
  std::string Dir;    // without a trailing '/', except "/"
  std::string Prefix; // with one
};

// The project root of the compile database: the deepest directory holding
// the directories and files of all its commands (those of Sources when it
// lists none, as the flags after "--").
std::string projectRoot(const clang::tooling::CompilationDatabase &DB,
                        llvm::ArrayRef<std::string> Sources);

// Every file path in R (its file, the findings' and notes' and fixes'
// positions, the summary's) and in a table of summaries, through Map.
using PathMap = llvm::function_ref<std::string(llvm::StringRef)>;
void relocate(TUResult &R, PathMap Map);
void relocate(FunctionTable &T, PathMap Map);

} // namespace torchtidy
