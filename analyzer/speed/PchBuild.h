// Building one precompiled header of a file's leading #include block with
// the file's own flags (SharedPch decides which, and when).
#pragma once

#include "frontend/IncludedFiles.h"

#include <string>
#include <vector>

namespace torchtidy {

struct PchBuildResult {
  std::string Error;                   // "" when built
  bool Usable = false;                 // every project header in it has an include guard
  std::vector<std::string> Inputs;     // every file it was built from (the header aside),
                                       // or read before it failed
  std::vector<MissingHeader> Missing;  // includes that found no file
  std::vector<std::string> UserInputs; // those of Inputs that are not system headers
  bool ReadUserHeader = false;         // a project header took part, built or not
};

// Compiles Header (which holds the #include lines) into Pch with Args (the
// compile command less its source file), from Directory. The output is
// written to a temporary file and renamed by clang: a killed build leaves
// no half-written Pch.
PchBuildResult buildPch(const std::vector<std::string> &Args, const std::string &Directory,
                        const std::string &Header, const std::string &Pch, bool SkipBodies);

} // namespace torchtidy
