// The order a cold run analyses files in: a file comes after the files
// whose headers it includes (a.cpp includes "b.h", and b.cpp is analysed
// too; also through the project's headers it includes) and waits for those
// its own #includes name; files that define main() come last. So most
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
