// How one analysis runs: the checks and their options, workers, timeouts,
// extra flags, and the cache and PCH objects it may use. In frontend/ so that
// the frontend and speed/ see it without depending on the driver.
#pragma once

#include "findings/Finding.h"
#include "framework/Check.h"

#include "clang/Tooling/ArgumentsAdjusters.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace torchtidy {

class Profile;
class ResultCache;
class SharedPch;

struct AnalysisOptions {
  std::vector<const RuleInfo *> Checks;  // enabled checks
  CheckOptions::Map Options;
  unsigned Jobs = 1;
  unsigned TimeoutSeconds = 0;          // per TU; 0: none
  std::vector<std::string> ExtraArgs;   // appended to every compile command
  bool SkipSystemBodies = true;         // don't parse function bodies in system headers
  std::function<void(const TUResult &, size_t Done, size_t Total)> OnDone;
  Profile *Prof = nullptr;      // --profile: where the time goes
  ResultCache *Cache = nullptr; // null with --no-cache
  SharedPch *Pch = nullptr;     // null with --no-pch
  const FunctionTable *Program = nullptr; // what the other TUs' functions do
  // Unsaved editor buffers by absolute path, parsed instead of the files on
  // disk (which are never written); the result cache must be off with them.
  std::map<std::string, std::string> Overlays;
};

// The compile command as the analysis runs it (syntax only, no output or
// dependency files, no warnings, clang's resource directory, LibTorch's
// headers as system headers wherever they are found): the shared
// PCH is built with the same flags.
clang::tooling::ArgumentsAdjuster analysisArgumentsAdjuster(const AnalysisOptions &Opts);

} // namespace torchtidy
