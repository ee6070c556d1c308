#include "checks/non_blocking_pageable.h"

#include "analyses/CallSummary.h"
#include "analyses/DeviceExpr.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo NonBlockingPageableCheck::Info = {
    "torch-non-blocking-pageable",
    "non_blocking=true on a host-to-device copy from pageable memory: the copy blocks anyway",
    Level::Warning,
    Precision::Medium,
    {"performance"},
    {},
    /*NeedsCuda=*/false,
    RuntimeSignal::PageableTransfer};

void NonBlockingPageableCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(unless(isExpansionInSystemHeader()), callee(cxxMethodDecl(hasName("to"))))
          .bind("call"),
      this);
}

void NonBlockingPageableCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  const CXXMethodDecl *MD = Call->getMethodDecl();
  if (!isTensorMethod(MD, "to") || !boolArgTrue(*Call, MD, "non_blocking", Ctx))
    return;
  // The summaries' classification says whether the call copies to a device.
  std::optional<Effect> E = classifyCall(*Call, Ctx);
  if (!E || E->Kind != EffectKind::Copy)
    return;
  const Expr *Src = Call->getImplicitObjectArgument();
  if (!isProvablyPageable(Src))
    return;
  diag(*Result.SourceManager, callLoc(*Call),
       "non_blocking=true has no effect on a copy from pageable host memory: the host still "
       "waits for it; pin the source (.pin_memory()) or drop non_blocking")
      .note(Src->getExprLoc(), "the source is pageable host memory");
}

} // namespace torchtidy
