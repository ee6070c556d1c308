// Fix-its: --fix rewrites the files in place, --export-fixes writes them as
// clang-tidy's YAML for clang-apply-replacements; docs/fixes.md.
#pragma once

#include "findings/Finding.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace torchtidy {

// Applies the fixes of Findings, each file all or nothing and atomically: a
// file whose fixes overlap, or that cannot be rewritten, is left as it was
// and adds an error naming it and the cause. Log gets one line per file
// fixed. Returns the number of replacements made.
size_t applyFixes(const std::vector<Finding> &Findings, std::vector<std::string> &Errors,
                  llvm::raw_ostream *Log);

// clang::tooling::TranslationUnitDiagnostics YAML, every finding with its
// notes and replacements, written atomically. Error names the file.
bool exportFixes(const std::vector<Finding> &Findings, llvm::StringRef MainSourceFile,
                 const std::string &Path, std::string &Error);

} // namespace torchtidy
