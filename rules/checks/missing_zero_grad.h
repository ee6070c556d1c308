#pragma once

#include "analyses/LoopCheck.h"

namespace torchtidy {

// See docs/rules/torch-missing-zero-grad.md.
class MissingZeroGradCheck : public LoopCheck {
public:
  static const RuleInfo Info;
  using LoopCheck::LoopCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchtidy
