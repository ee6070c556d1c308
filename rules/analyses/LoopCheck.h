// The base of the loop-aware checks: one CallSummaries per translation unit,
// built on first use, and the reporting of call chains.
#pragma once

#include "analyses/CallSummary.h"
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
  }

protected:
  CallSummaries &summaries(clang::ASTContext &Ctx) {
    if (!Summaries || &Summaries->context() != &Ctx)
      Summaries = std::make_unique<CallSummaries>(Ctx, sink().program());
    return *Summaries;
  }

private:
  std::unique_ptr<CallSummaries> Summaries;
};

// Where a reached effect is reported: the call in the loop.
inline clang::SourceLocation reportLoc(const ReachedEffect &R) {
  return R.Chain.empty() ? R.Op.Loc : R.Chain.front().Loc;
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
      D.note(L.Loc, "virtual call: the summaries of '" + L.Callee +
                        "' and its overriders in the other files are used");
    else if (L.Virtual)
      D.note(L.Loc, "virtual call: the summary of the static callee '" + L.Callee + "' is used");
    if (I > 0)
      noteAt(D, L.Loc, L.Elsewhere, "'" + R.Chain[I - 1].Callee + "' calls '" + L.Callee + "' here");
  }
  if (!R.Chain.empty())
    noteAt(D, R.Op.Loc, R.Op.Elsewhere, OpNote);
}

} // namespace torchtidy
