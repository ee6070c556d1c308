// The options that decide how fast torchtidy runs (result caches, shared
// precompiled header, workers bounded by memory, --profile), and the
// objects behind them for one run.
#pragma once

#include "driver/Analysis.h"
#include "config/Config.h"
#include "frontend/IncludedFiles.h"
#include "support/Profile.h"
#include "speed/ResultCache.h"
#include "speed/SharedPch.h"
#include "speed/RemoteCache.h"
#include "config/RemoteSettings.h"

#include "llvm/Support/CommandLine.h"

#include <memory>

namespace torchtidy {

llvm::cl::OptionCategory &speedCategory();

class SpeedSetup {
public:
  // Fills in Opts' cache, PCH, profile and (bounded) Jobs; Quiet hides the
  // note on a -j lowered for memory. Returns the error of a malformed
  // option, else "".
  std::string apply(AnalysisOptions &Opts, bool Quiet);
  // After apply(): the remote cache of the command line, else of the
  // first source's configuration. A usage error, or "".
  std::string useRemote(ConfigFinder &Finder, const clang::tooling::CompilationDatabase &DB,
                        llvm::ArrayRef<std::string> Sources);
  // After analyse(): prints the cache's and PCH's warnings.
  void analysed(llvm::raw_ostream &Err);
  // At the end: prints the profile (--profile).
  void finish(llvm::raw_ostream &Err);

private:
  FileStamps Stamps; // before the two that use it
  std::unique_ptr<ResultCache> Cache;
  std::unique_ptr<RemoteCache> Remote;
  std::unique_ptr<SharedPch> Pch;
  std::unique_ptr<Profile> Prof;
  Stopwatch Wall;
  std::unique_ptr<Stopwatch> SinceAnalysis;
  unsigned Jobs = 1;
};

} // namespace torchtidy
