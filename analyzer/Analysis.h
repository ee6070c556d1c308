// Runs the enabled checks over translation units, in parallel, one Clang
// frontend per file; a file that fails never stops the others.
#pragma once

#include "Check.h"
#include "Finding.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <functional>
#include <string>
#include <vector>

namespace torchtidy {

struct AnalysisOptions {
  std::vector<const RuleInfo *> Checks;  // enabled checks
  CheckOptions::Map Options;
  unsigned Jobs = 1;
  std::vector<std::string> ExtraArgs;   // appended to every compile command
  bool SkipSystemBodies = true;         // don't parse function bodies in system headers
  std::function<void(const TUResult &, size_t Done, size_t Total)> OnDone;
};

// Results in the order of Files.
std::vector<TUResult> analyse(const clang::tooling::CompilationDatabase &DB,
                              const std::vector<std::string> &Files,
                              const AnalysisOptions &Opts);

} // namespace torchtidy
