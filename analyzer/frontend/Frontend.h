// One run of Clang's frontend over a translation unit: the checks matched
// on its AST, its errors and missing includes kept, its included files
// recorded for the result cache. The driver (Analysis.cpp) decides what to
// run and when.
#pragma once

#include "frontend/AnalysisOptions.h"
#include "frontend/IncludedFiles.h"
#include "frontend/LoopRecovery.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace torchtidy {

// What one run of the frontend over a TU adds to its result.
struct TURun {
  TUResult &Result;
  std::shared_ptr<IncludedFiles> Included; // for the result cache; may be null
  double CheckSeconds = 0;                 // matching and end-of-TU work of the checks
  // The loaded PCH holds project headers: their declarations come from it,
  // not from the parser, and are matched as if parsed.
  bool PchHoldsUserHeaders = false;
  // A quoted include of the user's was not found: a project header the
  // analysis never saw.
  bool MissingProjectHeader = false;
  // Missing quoted headers found ignoring letter case (MissingHeaders.h):
  // the path asked for, to the file's. The next parse, analysed instead,
  // finds them there.
  std::map<std::string, std::string> CaseMatches;
  std::vector<std::string> CaseMatchErrors;  // that they are not found as asked
  bool CaseMatchesFound = false;
  // Where Clang's errors are, and the text the preprocessor skipped (valid
  // while the TU's SourceManager lives).
  std::vector<clang::SourceLocation> ErrorLocs;
  std::vector<clang::SourceRange> Skipped;
  // Dropped loops (LoopRecovery.h): the files rewritten for the next parse,
  // which is analysed instead, by absolute name; what the rewrites changed;
  // how many parses were rewritten ones.
  std::map<std::string, std::string> Rewritten;
  Rewrites Done;
  int Recoveries = 0;
};

// Runs the frontend with the checks over File, loading Pch when not empty.
void runFrontend(const clang::tooling::CompilationDatabase &DB, const std::string &File,
                 const AnalysisOptions &Opts, const std::string &Pch, TURun &Run);

} // namespace torchtidy
