// NOLINT comments, as clang-tidy reads them: NOLINT and NOLINTNEXTLINE
// (optionally with a comma list of check globs in parentheses) and
// NOLINTBEGIN/NOLINTEND ranges.
#pragma once

#include "config/CheckGlob.h"
#include "findings/Finding.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace torchtidy {

class FileSuppressions {
public:
  // Reads the directives in the comments of one file's text. An unmatched
  // NOLINTBEGIN or NOLINTEND, or a bad glob, adds a clang-style
  // "file:line:col: error: ..." to Errors and suppresses nothing. Text must
  // be followed by a NUL, as a MemoryBuffer's is: Clang's lexer reads it.
  static FileSuppressions parse(llvm::StringRef File, llvm::StringRef Text,
                                std::vector<std::string> &Errors);
  bool suppresses(unsigned Line, llvm::StringRef CheckId) const;

private:
  struct Range {
    unsigned First, Last; // lines, inclusive
    bool AllChecks;
    CheckGlob Checks;
  };
  std::vector<Range> Ranges;
};

// Sets Finding::Suppressed for each finding with a NOLINT for its check on
// its own line or on the line of one of its notes (a finding reached
// through a call can be silenced at the call or where it happens). Each
// file is read once; Files are scanned too, so that an unmatched
// NOLINTBEGIN is reported in a file without findings. A file in Overlays
// (an editor's unsaved buffer) is read from there.
void applySuppressions(std::vector<Finding> &Findings, const std::vector<std::string> &Files,
                       std::vector<std::string> &Errors,
                       const std::map<std::string, std::string> &Overlays = {});

} // namespace torchtidy
