#include "Analysis.h"

#include "FindingCollector.h"
#include "Registry.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <atomic>
#include <mutex>
#include <thread>

#ifndef TORCHTIDY_CLANG_RESOURCE_DIR
#error "TORCHTIDY_CLANG_RESOURCE_DIR must name clang's resource directory"
#endif

using namespace clang;

namespace torchtidy {
namespace {

std::string formatLocation(SourceLocation Loc, const SourceManager &SM) {
  Position P = resolvePosition(Loc, SM);
  if (P.File.empty())
    return "";
  return P.File + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column) + ": ";
}

// Keeps clang's errors for the report; warnings are not ours to give.
class ErrorCollector : public DiagnosticConsumer {
public:
  explicit ErrorCollector(std::vector<std::string> &Errors) : Errors(Errors) {}
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Error)
      return;
    llvm::SmallString<256> Text;
    Info.FormatDiagnostic(Text);
    std::string Where = Info.hasSourceManager() && Info.getLocation().isValid()
                            ? formatLocation(Info.getLocation(), Info.getSourceManager())
                            : "";
    Errors.push_back(Where + (Level == DiagnosticsEngine::Fatal ? "fatal error: " : "error: ") +
                     Text.str().str());
  }

private:
  std::vector<std::string> &Errors;
};

// A missing include does not stop the translation unit (the preprocessor is
// told to go on); it is still an error of the result.
class MissingIncludes : public PPCallbacks {
public:
  MissingIncludes(const SourceManager &SM, std::vector<std::string> &Errors)
      : SM(SM), Errors(Errors) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef FileName, bool,
                          CharSourceRange, OptionalFileEntryRef File, StringRef, StringRef,
                          const Module *, bool, SrcMgr::CharacteristicKind) override {
    if (!File)
      Errors.push_back(formatLocation(HashLoc, SM) + "error: '" + FileName.str() +
                       "' file not found (analysis went on without it)");
  }

private:
  const SourceManager &SM;
  std::vector<std::string> &Errors;
};

class AnalysisConsumer : public ASTConsumer {
public:
  AnalysisConsumer(const AnalysisOptions &Opts, std::vector<Finding> &Findings)
      : Sink(Findings) {
    for (const RuleInfo *Info : Opts.Checks) {
      Checks.push_back(findCheck(Info->Id)->Create(Opts.Options, Sink));
      Checks.back()->registerMatchers(&Finder);
    }
  }

  void Initialize(ASTContext &Ctx) override { SM = &Ctx.getSourceManager(); }

  // Bodies of functions in system headers are never matched: Sema skips
  // them, as clangd does for its preambles. Those it needs (constexpr,
  // deduced return types) it parses anyway.
  bool shouldSkipFunctionBody(Decl *D) override {
    return SM->isInSystemHeader(SM->getExpansionLoc(D->getLocation()));
  }

  // Only declarations parsed from the user's code are matched: LibTorch's
  // own (system headers, or a precompiled header) are never traversed.
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (!SM->isInSystemHeader(SM->getExpansionLoc(D->getLocation())))
        UserDecls.push_back(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Ctx.setTraversalScope(UserDecls);
    Finder.matchAST(Ctx);
    for (auto &C : Checks)
      C->onEndOfTranslationUnit(Ctx);
  }

private:
  FindingCollector Sink;
  ast_matchers::MatchFinder Finder;
  std::vector<std::unique_ptr<Check>> Checks;
  std::vector<Decl *> UserDecls;
  const SourceManager *SM = nullptr;
};

class AnalysisAction : public ASTFrontendAction {
public:
  AnalysisAction(const AnalysisOptions &Opts, TUResult &Result) : Opts(Opts), Result(Result) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getFrontendOpts().SkipFunctionBodies = Opts.SkipSystemBodies;
    // Errors are reported per file by the driver, not as clang's
    // "N errors generated." (printed only when carets are shown).
    CI.getDiagnosticOpts().ShowCarets = false;
    Preprocessor &PP = CI.getPreprocessor();
    PP.SetSuppressIncludeNotFoundError(true);
    PP.addPPCallbacks(std::make_unique<MissingIncludes>(CI.getSourceManager(), Result.Errors));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<AnalysisConsumer>(Opts, Result.Findings);
  }

private:
  const AnalysisOptions &Opts;
  TUResult &Result;
};

class ActionFactory : public tooling::FrontendActionFactory {
public:
  ActionFactory(const AnalysisOptions &Opts, TUResult &Result) : Opts(Opts), Result(Result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<AnalysisAction>(Opts, Result);
  }

private:
  const AnalysisOptions &Opts;
  TUResult &Result;
};

bool hasArgStartingWith(const tooling::CommandLineArguments &Args, StringRef Prefix) {
  for (const std::string &A : Args)
    if (StringRef(A).starts_with(Prefix))
      return true;
  return false;
}

TUResult analyseOne(const tooling::CompilationDatabase &DB, const std::string &File,
                    const AnalysisOptions &Opts) {
  TUResult Result;
  Result.File = File;
  if (!llvm::sys::fs::exists(File)) {
    Result.Failure = "no such file";
    return Result;
  }
  if (llvm::sys::fs::is_directory(File)) {
    Result.Failure = "is a directory, not a source file";
    return Result;
  }
  if (DB.getCompileCommands(File).empty()) {
    Result.Failure = "no compile command for this file in the compilation database";
    return Result;
  }
  tooling::ClangTool Tool(DB, {File});
  ErrorCollector Errors(Result.Errors);
  Tool.setDiagnosticConsumer(&Errors);
  Tool.setPrintErrorMessage(false);
  std::vector<std::string> Extra = Opts.ExtraArgs;
  Extra.insert(Extra.end(), {"-w", "-ferror-limit=0"});
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      Extra, tooling::ArgumentInsertPosition::END));
  Tool.appendArgumentsAdjuster([](const tooling::CommandLineArguments &Args, StringRef) {
    if (hasArgStartingWith(Args, "-resource-dir"))
      return Args;
    tooling::CommandLineArguments Out = Args;
    Out.insert(Out.begin() + 1, "-resource-dir=" TORCHTIDY_CLANG_RESOURCE_DIR);
    return Out;
  });
  ActionFactory Factory(Opts, Result);
  int RC = Tool.run(&Factory);
  if (RC != 0 && Result.Errors.empty())
    Result.Failure = "the compiler could not process the compile command";
  return Result;
}

} // namespace

std::vector<TUResult> analyse(const tooling::CompilationDatabase &DB,
                              const std::vector<std::string> &Files,
                              const AnalysisOptions &Opts) {
  std::vector<TUResult> Results(Files.size());
  std::atomic<size_t> Next{0};
  std::mutex DoneLock;
  size_t Done = 0;
  auto Worker = [&] {
    for (size_t I = Next++; I < Files.size(); I = Next++) {
      Results[I] = analyseOne(DB, Files[I], Opts);
      if (Opts.OnDone) {
        std::lock_guard<std::mutex> G(DoneLock);
        Opts.OnDone(Results[I], ++Done, Files.size());
      }
    }
  };
  unsigned Jobs = std::max(1u, std::min<unsigned>(Opts.Jobs, Files.size()));
  std::vector<std::thread> Threads;
  for (unsigned J = 1; J < Jobs; ++J)
    Threads.emplace_back(Worker);
  Worker();
  for (std::thread &T : Threads)
    T.join();
  return Results;
}

} // namespace torchtidy
