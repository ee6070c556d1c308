#pragma once

#include "LoopCheck.h"

#include <optional>

namespace torchtidy {

// See docs/rules/torch-unsynchronized-timing.md.
class UnsynchronizedTimingCheck : public LoopCheck {
public:
  static const RuleInfo Info;
  using LoopCheck::LoopCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override {
    MayUseCuda.reset();
    LoopCheck::onEndOfTranslationUnit(Ctx);
  }

private:
  std::optional<bool> MayUseCuda;  // per translation unit, computed on first use
};

} // namespace torchtidy
