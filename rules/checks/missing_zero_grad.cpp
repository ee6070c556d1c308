#include "checks/missing_zero_grad.h"

#include "analyses/LoopContext.h"
#include "analyses/LoopCheck.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo MissingZeroGradCheck::Info = {
    "torch-missing-zero-grad",
    "a training loop that calls backward() and step() but never clears the gradients",
    Level::Warning,
    Precision::High,
    {"correctness"},
    {},
    /*NeedsCuda=*/false,
    RuntimeSignal::StaleGradient};

void MissingZeroGradCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(userLoop(), this);
}

void MissingZeroGradCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  ASTContext &Ctx = *Result.Context;
  std::vector<ReachedEffect> All;
  for (const Stmt *Part : Loop->children())
    if (Part && isPerIterationPart(Loop, Part))
      for (ReachedEffect &E : summaries(Ctx).effectsOfStmt(Part))
        All.push_back(std::move(E));
  // A clear anywhere in the body counts, also in a nested loop or a branch;
  // a step or backward in a nested loop is that loop's finding.
  const ReachedEffect *Step = nullptr, *Backward = nullptr;
  for (const ReachedEffect &E : All) {
    if (E.Op.Kind == EffectKind::ZeroGrad)
      return;
    if (E.Op.Kind == EffectKind::Step && !E.InLoop && !Step)
      Step = &E;
    if (E.Op.Kind == EffectKind::Backward && !E.InLoop && !Backward)
      Backward = &E;
  }
  if (!Step || !Backward)
    return;
  std::string Msg =
      (Step->Chain.empty() ? std::string("'step()'")
                           : "call to '" + Step->Chain.front().Callee + "' runs 'step()', which") +
      " applies gradients that no code in this loop clears, so backward() adds every "
      "iteration's gradients onto the last; call optimizer.zero_grad() once per iteration";
  DiagBuilder D = diag(*Result.SourceManager, reportLoc(*Step), Msg);
  addChainNotes(D, *Step, "the optimizer steps here");
  D.note(reportLoc(*Backward), "gradients are accumulated by backward() here");
  addChainNotes(D, *Backward, "backward() runs here");
  D.note(loopLoc(Loop), "in this loop");
}

} // namespace torchtidy
