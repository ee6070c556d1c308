#include "checks/data_parallel.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo DataParallelCheck::Info = {
    "torch-data-parallel",
    "torch::nn::parallel::data_parallel / replicate / parallel_apply: one process per GPU "
    "with all-reduce is faster",
    Level::Warning,
    Precision::High,
    {"performance", "memory"},
    {},
    /*NeedsCuda=*/false,
    RuntimeSignal::DataParallel};

void DataParallelCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(callee(functionDecl(hasAnyName("::torch::nn::parallel::data_parallel",
                                              "::torch::nn::parallel::replicate",
                                              "::torch::nn::parallel::parallel_apply"))
                          .bind("fn")))
          .bind("call"),
      this);
}

void DataParallelCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  std::string Name = Fn->getNameAsString();
  std::string What =
      Name == "data_parallel"
          ? "replicates the module onto every device, scatters the input from one device and "
            "gathers all outputs back on one device, on every call"
      : Name == "replicate"
          ? "copies the module's parameters and buffers onto every device each time it runs"
          : "runs one replica per device from one host thread, with outputs left for one device "
            "to gather";
  const SourceManager &SM = *Result.SourceManager;
  // At the function's name, past any namespace qualifier.
  const auto *Ref = llvm::dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreImplicit());
  SourceLocation Loc = Ref ? Ref->getLocation() : Call->getBeginLoc();
  diag(SM, Loc,
       "'" + Name + "' " + What +
           "; use one process per GPU with its own module and data shard, averaging gradients "
           "with a c10d all-reduce (NCCL), as DistributedDataParallel does");
}

} // namespace torchtidy
