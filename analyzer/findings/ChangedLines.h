// --diff=<rev>: the lines changed since a git revision, read from
// `git diff -U0` as clang-tidy-diff does, so that a review bot or a
// pre-commit hook reports only what the change touched.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace torchtidy {

class ChangedLines {
public:
  // The changes of the working tree against Rev in the git repository
  // that holds the working directory; Error says why not.
  static std::optional<ChangedLines> since(llvm::StringRef Rev, std::string &Error);
  // Parses `git diff -U0` output; paths are made absolute under Root.
  static ChangedLines parse(llvm::StringRef Diff, llvm::StringRef Root);

  bool fileChanged(llvm::StringRef Path) const { return Ranges.count(Path.str()) != 0; }
  bool lineChanged(llvm::StringRef Path, unsigned Line) const;

private:
  // Per absolute path, the [first, last] lines of the new side.
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Ranges;
};

} // namespace torchtidy
