#pragma once

#include "framework/Check.h"

namespace torchtidy {

// torch-forward-factory-device: a tensor factory in a module's forward that
// ignores the input's device (see docs/rules/torch-forward-factory-device.md).
class ForwardFactoryDeviceCheck : public Check {
public:
  static const RuleInfo Info;
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace torchtidy
