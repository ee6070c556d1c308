#pragma once

#include "framework/Check.h"

namespace torchtidy {

// torch-data-parallel: single-process data parallelism, rebuilt on every
// call (see docs/rules/torch-data-parallel.md).
class DataParallelCheck : public Check {
public:
  static const RuleInfo Info;
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchtidy
