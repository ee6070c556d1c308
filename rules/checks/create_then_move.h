#pragma once

#include "framework/Check.h"

namespace torchtidy {

// torch-create-then-move: a factory made on the CPU and moved at once
// (see docs/rules/torch-create-then-move.md).
class CreateThenMoveCheck : public Check {
public:
  static const RuleInfo Info;
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchtidy
