#pragma once

#include "analyses/LoopCheck.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace torchtidy {

// See docs/rules/torch-eval-without-no-grad.md.
class EvalWithoutNoGradCheck : public LoopCheck {
public:
  static const RuleInfo Info;
  using LoopCheck::LoopCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx,
                              llvm::ArrayRef<clang::SourceLocation> Errors) override;

private:
  struct Candidate {
    const clang::CallExpr *Forward;
    const clang::Stmt *Loop;
    const clang::FunctionDecl *Function;
    const clang::SourceManager *SM;
    bool AfterEval;  // eval() before the loop, not only the function's name
  };
  void recordCallSite(const clang::CallExpr &Call);
  bool calledOnlyWithoutGrad(const clang::FunctionDecl *F, clang::ASTContext &Ctx) const;

  // Decided at the end of the translation unit: a function whose every call
  // site is under a no-grad guard runs without recording. The guard test
  // is run then, on the callers of candidates only.
  std::vector<Candidate> Candidates;
  llvm::DenseSet<const clang::Stmt *> LoopsSeen;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> CallSites;
};

} // namespace torchtidy
