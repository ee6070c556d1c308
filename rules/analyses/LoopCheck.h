// The base of the loop-aware checks: one CallSummaries per translation unit,
// built on first use, and the reporting of call chains.
#pragma once

#include "analyses/CallSummary.h"
#include "analyses/DeadCode.h"
#include "analyses/LoopContext.h"
#include "framework/Check.h"

#include <memory>

namespace torchtidy {

class LoopCheck : public Check {
public:
  using Check::Check;
  // Subclasses that override this must call it: the summaries point into
  // the translation unit's AST.
  void onEndOfTranslationUnit(clang::ASTContext &,
                              llvm::ArrayRef<clang::SourceLocation>) override {
    Summaries.reset();
    Dead.reset();
  }

protected:
  // What a per-iteration check reports at Call: nothing for the call of a
  // lambda that is the loop's own code, whose ops are reported where written.
  std::vector<ReachedEffect> effectsAtCall(const clang::CallExpr &Call, clang::ASTContext &Ctx) {
    if (callsLoopLambda(Call, Ctx))
      return {};
    return summaries(Ctx).effectsOfCall(Call);
  }

  // S is in a function no program runs (an uninstantiated test case).
  bool inDeadCode(const clang::Stmt &S, clang::ASTContext &Ctx) {
    if (!Dead || &Dead->context() != &Ctx)
      Dead = std::make_unique<DeadCode>(Ctx);
    return Dead->contains(S);
  }

  CallSummaries &summaries(clang::ASTContext &Ctx) {
    if (!Summaries || &Summaries->context() != &Ctx)
      Summaries = std::make_unique<CallSummaries>(Ctx, sink().program());
    return *Summaries;
  }

private:
  std::unique_ptr<CallSummaries> Summaries;
  std::unique_ptr<DeadCode> Dead;
};

// Where a reached effect is reported: the call in the loop.
inline clang::SourceLocation reportLoc(const ReachedEffect &R) {
  return R.Chain.empty() ? R.Op.Loc : R.Chain.front().Loc;
}

// The loop notes: the call that runs a lambda of the loop's own code, the loop.
inline void addLoopNotes(DiagBuilder &D, const LoopContext &LC) {
  if (LC.Via && LC.ViaHandOff) {
    const clang::FunctionDecl *Callee = LC.Via->getDirectCallee();
    D.note(callLoc(*LC.Via), "the lambda, defined in the loop, is handed here to '" +
                                 (Callee ? Callee->getNameAsString() : std::string("a call")) +
                                 "', which runs it");
  } else if (LC.Via) {
    const auto *Lambda = llvm::cast<clang::DeclRefExpr>(LC.Via->getArg(0)->IgnoreParenImpCasts());
    D.note(callLoc(*LC.Via), "'" + Lambda->getDecl()->getNameAsString() + "', defined in the loop, is called here");
  }
  D.note(loopLoc(LC.Loop), "in this loop");
}

// A note at Loc, or in another file when Loc is invalid.
inline void noteAt(DiagBuilder &D, clang::SourceLocation Loc, const FilePos &Elsewhere,
                   llvm::StringRef Msg) {
  if (Loc.isValid())
    D.note(Loc, Msg);
  else
    D.note(Elsewhere, Msg);
}

// Notes down the chain: each further call, the virtual-dispatch caveat, the op.
inline void addChainNotes(DiagBuilder &D, const ReachedEffect &R, llvm::StringRef OpNote) {
  for (size_t I = 0; I < R.Chain.size(); ++I) {
    const ChainLink &L = R.Chain[I];
    if (L.Overriders)
      noteAt(D, L.Loc, L.Elsewhere,
             "virtual call: the summaries of '" + L.Callee + "' and its overriders are used");
    else if (L.Virtual)
      noteAt(D, L.Loc, L.Elsewhere,
             "virtual call: the summary of the static callee '" + L.Callee + "' is used");
    if (I > 0 && L.Handed)
      noteAt(D, L.Loc, L.Elsewhere,
             "'" + R.Chain[I - 1].Callee + "' is " +
                 (L.Callee == "lambda" ? std::string("the lambda") : "'" + L.Callee + "'") +
                 " passed here");
    else if (I > 0)
      noteAt(D, L.Loc, L.Elsewhere, "'" + R.Chain[I - 1].Callee + "' calls '" + L.Callee + "' here");
  }
  if (!R.Chain.empty())
    noteAt(D, R.Op.Loc, R.Op.Elsewhere, OpNote);
}

} // namespace torchtidy
