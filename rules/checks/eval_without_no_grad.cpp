#include "checks/eval_without_no_grad.h"

#include "analyses/GradMode.h"
#include "analyses/LoopContext.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo EvalWithoutNoGradCheck::Info = {
    "torch-eval-without-no-grad",
    "module forward in an evaluation loop with autograd recording: every output keeps its graph "
    "alive; hold a torch::NoGradGuard",
    Level::Warning,
    Precision::Medium,
    {"performance", "memory"},
    {}};

void EvalWithoutNoGradCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"), this);
}

// evaluate, eval_epoch, test, validate, validation_step, infer, predict:
// some word of the name (split at '_' and at lower-to-upper case changes).
static bool nameLooksLikeEvaluation(const FunctionDecl &F) {
  if (!F.getIdentifier())
    return false;
  std::string Words;
  llvm::StringRef N = F.getName();
  for (size_t I = 0; I < N.size(); ++I) {
    if (I > 0 && llvm::isUpper(N[I]) && llvm::isLower(N[I - 1]))
      Words += '_';
    Words += llvm::toLower(N[I]);
  }
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  llvm::StringRef(Words).split(Parts, '_', -1, false);
  for (llvm::StringRef W : Parts)
    for (llvm::StringRef Prefix : {"eval", "test", "valid", "infer", "predict"})
      if (W.starts_with(Prefix))
        return true;
  return false;
}

// module->eval() or module->train(false) in Body before Loop.
static bool evalBefore(const Stmt *Body, const Stmt *Loop, const SourceManager &SM) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const Stmt *Loop;
    const SourceManager &SM;
    bool Found = false;
    Finder(const Stmt *L, const SourceManager &SM) : Loop(L), SM(SM) {}
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *C) {
      const CXXMethodDecl *MD = C->getMethodDecl();
      if (!MD || !MD->getIdentifier() || !isTorchDecl(MD) ||
          !SM.isBeforeInTranslationUnit(C->getBeginLoc(), Loop->getBeginLoc()))
        return true;
      const auto *Arg = C->getNumArgs() == 1
                            ? dyn_cast<CXXBoolLiteralExpr>(C->getArg(0)->IgnoreParenImpCasts())
                            : nullptr;
      Found |= MD->getName() == "eval" || (MD->getName() == "train" && Arg && !Arg->getValue());
      return !Found;
    }
  } F(Loop, SM);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

void EvalWithoutNoGradCheck::recordCallSite(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (FD && FD->isDefined())
    CallSites[FD->getCanonicalDecl()].push_back(&Call);
}

bool EvalWithoutNoGradCheck::calledOnlyWithoutGrad(const FunctionDecl *F, ASTContext &Ctx) const {
  auto It = CallSites.find(F);
  return It != CallSites.end() &&
         llvm::all_of(It->second, [&](const CallExpr *C) { return isUnderNoGrad(*C, Ctx); });
}

void EvalWithoutNoGradCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  recordCallSite(*Call);
  if (!isModuleForwardCall(*Call))
    return;
  LoopContext LC = loopContextOf(*Call, Ctx);
  if (!LC || LoopsSeen.contains(LC.Loop) || isUnderNoGrad(*Call, Ctx))
    return;
  // A loop that trains (here or in a loop around it) needs the graph.
  for (const Stmt *L = LC.Loop; L; L = loopContextOf(*L, Ctx).Loop)
    for (const ReachedEffect &E : summaries(Ctx).effectsOfStmt(L))
      if (E.Op.Kind == EffectKind::Backward || E.Op.Kind == EffectKind::Step)
        return;
  const FunctionDecl *F = enclosingFunction(*Call, Ctx);
  if (!F || !F->hasBody())
    return;
  bool AfterEval = evalBefore(F->getBody(), LC.Loop, *Result.SourceManager);
  if (!AfterEval && !nameLooksLikeEvaluation(*F))
    return;
  LoopsSeen.insert(LC.Loop);
  Candidates.push_back({Call, LC.Loop, F->getCanonicalDecl(), Result.SourceManager, AfterEval});
}

void EvalWithoutNoGradCheck::onEndOfTranslationUnit(ASTContext &Ctx,
                                                    llvm::ArrayRef<SourceLocation> Errors) {
  for (const Candidate &C : Candidates) {
    if (calledOnlyWithoutGrad(C.Function, Ctx))
      continue;
    std::string Why = C.AfterEval ? "after 'eval()'" : "in '" + C.Function->getNameAsString() + "'";
    DiagBuilder D = diag(*C.SM, callLoc(*C.Forward),
                         "forward " + Why + " runs with autograd recording: each output keeps its "
                         "graph and activations alive until it is freed; declare "
                         "'torch::NoGradGuard no_grad;' (or 'c10::InferenceMode guard;') before "
                         "the loop");
    D.note(loopLoc(C.Loop), "in this loop, which calls no backward() or step()");
  }
  Candidates.clear();
  LoopsSeen.clear();
  CallSites.clear();
  LoopCheck::onEndOfTranslationUnit(Ctx, Errors);
}

} // namespace torchtidy
