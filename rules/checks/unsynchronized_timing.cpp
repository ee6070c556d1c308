#include "checks/unsynchronized_timing.h"

#include "clang/AST/ParentMapContext.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo UnsynchronizedTimingCheck::Info = {
    "torch-unsynchronized-timing",
    "a host clock read after tensor work with no synchronize before it times the kernel "
    "launches, not the work",
    Level::Warning,
    Precision::Medium,
    {"correctness", "performance"},
    {},
    /*NeedsCuda=*/true};

// std::chrono clocks' now() (steady, system, high_resolution), POSIX clocks.
static auto clockRead() {
  return callExpr(callee(functionDecl(anyOf(
      cxxMethodDecl(hasName("now"),
                    ofClass(cxxRecordDecl(matchesName("^::std::chrono::")))),
      functionDecl(hasAnyName("::clock_gettime", "::gettimeofday"))))));
}

void UnsynchronizedTimingCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(clockRead().bind("close"), this);
}

static const CallExpr *firstClockRead(const Stmt *S, ASTContext &Ctx) {
  return selectFirst<CallExpr>(
      "c", match(stmt(anyOf(clockRead().bind("c"), hasDescendant(clockRead().bind("c")))), *S, Ctx));
}

// The block around the statement that holds E, and that statement.
static std::pair<const CompoundStmt *, const Stmt *> enclosingBlock(const Expr &E, ASTContext &Ctx) {
  const Stmt *Child = &E;
  DynTypedNodeList Parents = Ctx.getParents(E);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
      return {nullptr, nullptr};
    if (const auto *Block = P.get<CompoundStmt>())
      return {Block, Child};
    if (const Stmt *S = P.get<Stmt>())
      Child = S;
    Parents = Ctx.getParents(P);
  }
  return {nullptr, nullptr};
}

static bool isWork(EffectKind K) {
  return K == EffectKind::TensorWork || K == EffectKind::Backward || K == EffectKind::Step;
}
static bool isSync(EffectKind K) { return K == EffectKind::DeviceSync || K == EffectKind::HostSync; }

void UnsynchronizedTimingCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Close = Result.Nodes.getNodeAs<CallExpr>("close");
  ASTContext &Ctx = *Result.Context;
  if (Ctx.getSourceManager().isInSystemHeader(Close->getBeginLoc()))
    return;
  auto [Block, Holder] = enclosingBlock(*Close, Ctx);
  if (!Block)
    return;
  // The statements between the previous clock read of the block and this one.
  std::vector<const Stmt *> Between;
  const CallExpr *Open = nullptr;
  for (const Stmt *S : Block->body()) {
    if (S == Holder)
      break;
    if (const CallExpr *Read = firstClockRead(S, Ctx)) {
      Open = Read;
      Between.clear();
    } else {
      Between.push_back(S);
    }
  }
  if (!Open)
    return;
  // Where the last tensor work is launched, and whether a sync follows it
  // (in the same statement, such as a loop that synchronizes, or later).
  SourceLocation WorkLoc;
  bool Synced = false;
  for (const Stmt *S : Between) {
    bool Work = false, Sync = false;
    for (const ReachedEffect &E : summaries(Ctx).effectsOfStmt(S)) {
      if (isWork(E.Op.Kind) && !Work) {
        Work = true;
        WorkLoc = reportLoc(E);
      }
      Sync |= isSync(E.Op.Kind);
    }
    Synced = Work ? Sync : Synced || Sync;
  }
  if (WorkLoc.isInvalid() || Synced)
    return;
  DiagBuilder D = diag(*Result.SourceManager, Close->getBeginLoc(),
                       "clock read after tensor work with no synchronize before it: CUDA runs "
                       "the work asynchronously, so this measures the kernel launches, not the "
                       "work; call 'torch::cuda::synchronize()' before reading the clock");
  D.note(Open->getBeginLoc(), "the clock is read first here");
  D.note(WorkLoc, "the last tensor work before the read is launched here");
}

} // namespace torchtidy
