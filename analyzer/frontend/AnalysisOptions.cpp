#include "frontend/AnalysisOptions.h"

#include "frontend/CompileDb.h"

#ifndef TORCHTIDY_CLANG_RESOURCE_DIR
#error "TORCHTIDY_CLANG_RESOURCE_DIR must name clang's resource directory"
#endif

using namespace clang;

namespace torchtidy {
namespace {

bool hasArgStartingWith(const tooling::CommandLineArguments &Args, StringRef Prefix) {
  for (const std::string &A : Args)
    if (StringRef(A).starts_with(Prefix))
      return true;
  return false;
}

// Why File cannot be analysed at all, or "".
} // namespace

tooling::ArgumentsAdjuster analysisArgumentsAdjuster(const AnalysisOptions &Opts) {
  std::vector<std::string> Extra = Opts.ExtraArgs;
  Extra.insert(Extra.end(), {"-w", "-ferror-limit=0"});
  tooling::ArgumentsAdjuster A = tooling::combineAdjusters(
      tooling::combineAdjusters(tooling::getClangStripOutputAdjuster(),
                                tooling::getClangSyntaxOnlyAdjuster()),
      tooling::getClangStripDependencyFileAdjuster());
  A = tooling::combineAdjusters(
      A, tooling::getInsertArgumentAdjuster(Extra, tooling::ArgumentInsertPosition::END));
  // First, so that a --system-header-prefix of the command's own wins.
  A = tooling::combineAdjusters(
      A, tooling::getInsertArgumentAdjuster(librarySystemHeaderFlags(), tooling::ArgumentInsertPosition::BEGIN));
  return tooling::combineAdjusters(A, [](const tooling::CommandLineArguments &Args, StringRef) {
    if (hasArgStartingWith(Args, "-resource-dir"))
      return Args;
    tooling::CommandLineArguments Out = Args;
    Out.insert(Out.begin() + 1, "-resource-dir=" TORCHTIDY_CLANG_RESOURCE_DIR);
    return Out;
  });
}

} // namespace torchtidy
