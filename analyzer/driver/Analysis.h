// Runs the enabled checks over translation units, in parallel, one Clang
// frontend per file; a file that fails never stops the others.
#pragma once

#include "frontend/AnalysisOptions.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace torchtidy {

// Results in the order of Files.
std::vector<TUResult> analyse(const clang::tooling::CompilationDatabase &DB,
                              const std::vector<std::string> &Files,
                              const AnalysisOptions &Opts);

} // namespace torchtidy
