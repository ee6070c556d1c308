#pragma once

#include "analyses/LoopCheck.h"

namespace torchtidy {

// See docs/rules/torch-unsynchronized-timing.md.
class UnsynchronizedTimingCheck : public LoopCheck {
public:
  static const RuleInfo Info;
  using LoopCheck::LoopCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchtidy
