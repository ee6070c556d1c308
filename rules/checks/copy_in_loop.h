#pragma once

#include "analyses/LoopCheck.h"

namespace torchtidy {

// See docs/rules/torch-copy-in-loop.md.
class CopyInLoopCheck : public LoopCheck {
public:
  static const RuleInfo Info;
  using LoopCheck::LoopCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx,
                              llvm::ArrayRef<clang::SourceLocation> Errors) override;
};

} // namespace torchtidy
