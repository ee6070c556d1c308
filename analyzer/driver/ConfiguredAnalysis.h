// Runs the analysis of each source under its own .torchtidy.yaml: sources
// are grouped by configuration, each group analysed with its checks and
// options, and each result filtered by its configuration (applyConfig).
#pragma once

#include "driver/Analysis.h"
#include "config/Config.h"

namespace torchtidy {

struct ConfiguredRun {
  std::vector<TUResult> Results;         // of the sources analysed, in input order
  std::vector<std::string> ConfigErrors; // malformed configurations, once each
  std::vector<const RuleInfo *> Rules;   // enabled for some source, registry order
  size_t Excluded = 0;                   // sources in ExcludePaths
};

// Base gives the jobs and arguments; its checks and options come from the
// configurations. ShowProgress: the one-line display of Progress.h. A source whose configuration is malformed or enables no
// check is not analysed and its error is in ConfigErrors.
ConfiguredRun analyseConfigured(const clang::tooling::CompilationDatabase &DB,
                                const std::vector<std::string> &Sources, ConfigFinder &Finder,
                                AnalysisOptions Base, bool ShowProgress);

} // namespace torchtidy
