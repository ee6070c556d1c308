// The order a cold run analyses files in: a file that includes another
// file's header (a.cpp includes "b.h", and b.cpp is analysed too; also
// through the project's headers it includes) waits for that file, and a file that defines main() comes last, so that most
// calls into other files find those files' summaries already made and the
// file needs no second parse.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace torchtidy {

struct AnalysisOrder {
  std::vector<size_t> Files;              // indices into the files given
  std::vector<std::vector<size_t>> After; // per position, the earlier positions to wait for
};

// Callees' files first; files that cannot be read, and the files of an
// include cycle, keep their order. IncludeDirs gives a file's include
// search directories (-I, -iquote, -isystem), where its headers are looked
// for besides its own directory.
AnalysisOrder
calleesFirst(const std::vector<std::string> &Files,
             llvm::function_ref<std::vector<std::string>(const std::string &)> IncludeDirs);

} // namespace torchtidy
