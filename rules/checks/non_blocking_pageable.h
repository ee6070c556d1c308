#pragma once

#include "framework/Check.h"

namespace torchtidy {

// See docs/rules/torch-non-blocking-pageable.md.
class NonBlockingPageableCheck : public Check {
public:
  static const RuleInfo Info;
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchtidy
