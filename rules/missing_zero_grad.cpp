#include "missing_zero_grad.h"

#include "LoopContext.h"
#include "LoopCheck.h"

#include "clang/AST/StmtCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo MissingZeroGradCheck::Info = {
    "torch-missing-zero-grad",
    "a training loop that calls backward() and step() but never clears the gradients",
    Level::Warning,
    Precision::High,
    {"correctness"},
    {}};

void MissingZeroGradCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(stmt(anyOf(forStmt(), cxxForRangeStmt(), whileStmt(), doStmt()),
                          unless(isExpansionInSystemHeader()))
                         .bind("loop"),
                     this);
}

void MissingZeroGradCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  ASTContext &Ctx = *Result.Context;
  std::vector<const Stmt *> Parts;
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    Parts = {F->getCond(), F->getInc(), F->getBody()};
  else if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    Parts = {R->getBody()};
  else if (const auto *W = dyn_cast<WhileStmt>(Loop))
    Parts = {W->getCond(), W->getBody()};
  else if (const auto *D = dyn_cast<DoStmt>(Loop))
    Parts = {D->getCond(), D->getBody()};
  const ReachedEffect *Step = nullptr, *Backward = nullptr;
  std::vector<ReachedEffect> All;
  for (const Stmt *P : Parts)
    for (ReachedEffect &E : summaries(Ctx).effectsOfStmt(P))
      All.push_back(std::move(E));
  for (const ReachedEffect &E : All) {
    if (E.Op.Kind == EffectKind::ZeroGrad)
      return;
    if (E.Op.Kind == EffectKind::Step && !Step)
      Step = &E;
    if (E.Op.Kind == EffectKind::Backward && !Backward)
      Backward = &E;
  }
  if (!Step || !Backward)
    return;
  SourceLocation Key = reportLoc(*Step);
  auto It = Found.find(Key);
  const SourceManager &SM = Ctx.getSourceManager();
  // Keep the innermost loop: one that starts later and ends earlier.
  if (It != Found.end() &&
      !SM.isBeforeInTranslationUnit(It->second.Loop->getBeginLoc(), Loop->getBeginLoc()))
    return;
  Found[Key] = Pending{Loop, *Step, *Backward};
}

void MissingZeroGradCheck::onEndOfTranslationUnit(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const auto &[Loc, P] : Found) {
    std::string Msg =
        (P.Step.Chain.empty() ? std::string("'step()'")
                              : "call to '" + P.Step.Chain.front().Callee + "' runs 'step()', which") +
        " applies gradients that no code in this loop clears, so backward() adds every "
        "iteration's gradients onto the last; call optimizer.zero_grad() once per iteration";
    DiagBuilder D = diag(SM, Loc, Msg);
    addChainNotes(D, P.Step, "the optimizer steps here");
    D.note(reportLoc(P.Backward), "gradients are accumulated by backward() here");
    addChainNotes(D, P.Backward, "backward() runs here");
    D.note(loopLoc(P.Loop), "in this loop");
  }
  Found.clear();
  LoopCheck::onEndOfTranslationUnit(Ctx);
}

} // namespace torchtidy
