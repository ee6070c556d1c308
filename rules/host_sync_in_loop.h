#pragma once

#include "CallSummary.h"
#include "Check.h"

#include <map>
#include <memory>

namespace torchtidy {

// See docs/rules/torch-host-sync-in-loop.md.
class HostSyncInLoopCheck : public Check {
public:
  static const RuleInfo Info;
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx) override;

private:
  CallSummaries &summaries(clang::ASTContext &Ctx);
  clang::ASTContext *SummaryCtx = nullptr;
  std::unique_ptr<CallSummaries> Summaries;
  struct Pending {
    const clang::Stmt *Loop;
    ReachedEffect Step, Backward;
  };
  std::map<clang::SourceLocation, Pending> Found;
};

} // namespace torchtidy
