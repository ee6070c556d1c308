#include "frontend/Frontend.h"

#include "findings/FindingCollector.h"
#include "frontend/MissingHeaders.h"
#include "frontend/IncludedFiles.h"
#include "frontend/Isolation.h"
#include "support/Profile.h"
#include "checks/Registry.h"

#include "analyses/Callbacks.h"
#include "analyses/CudaText.h"
#include "analyses/CudaUse.h"
#include "analyses/DroppedCode.h"
#include "analyses/PlaceFacts.h"

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
#include "llvm/Support/VirtualFileSystem.h"

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
  ErrorCollector(std::vector<std::string> &Errors, std::vector<SourceLocation> &Locs)
      : Errors(Errors), Locs(Locs) {}
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
    Locs.push_back(Info.getLocation());
  }

private:
  std::vector<std::string> &Errors;
  std::vector<SourceLocation> &Locs;
};

// A missing include does not stop the translation unit (the preprocessor is
// told to go on); it is still an error of the result.
class MissingIncludes : public PPCallbacks {
public:
  MissingIncludes(Preprocessor &PP, TURun &Run) : PP(PP), SM(PP.getSourceManager()), Run(Run) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef FileName, bool IsAngled,
                          CharSourceRange, OptionalFileEntryRef File, StringRef, StringRef,
                          const Module *, bool, SrcMgr::CharacteristicKind) override {
    if (File || standInForGeneratedHeader(PP, FileName, HashLoc))
      return;
    if (auto Match = !IsAngled && !SM.isInSystemHeader(HashLoc)
                         ? caseInsensitiveMatch(PP, FileName, HashLoc)
                         : std::nullopt) {
      Run.CaseMatches.insert(*Match);
      Run.CaseMatchErrors.push_back(formatLocation(HashLoc, SM) + "error: '" + FileName.str() +
                                    "' file not found (analysed as '" + Match->second +
                                    "', which only a file system that ignores case finds)");
      return;
    }
    Run.Result.Errors.push_back(formatLocation(HashLoc, SM) + "error: '" + FileName.str() +
                                "' file not found (analysis went on without it)");
    // A library's header (OpenCV's missing an optional module, one of a
    // library that is not installed) or a code generator's holds no
    // project code.
    Run.MissingProjectHeader |= !IsAngled && !SM.isInSystemHeader(HashLoc) &&
                                !inLibraryDirectory(PP, FileName, HashLoc) && !madeByCodeGenerator(FileName);
  }
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    if (!SM.isInSystemHeader(Range.getBegin()))
      Run.Skipped.push_back(Range);
  }

private:
  Preprocessor &PP;
  const SourceManager &SM;
  TURun &Run;
};

ast_matchers::MatchFinder::MatchFinderOptions
finderOptions(const AnalysisOptions &Opts, llvm::StringMap<llvm::TimeRecord> &Records) {
  ast_matchers::MatchFinder::MatchFinderOptions O;
  if (Opts.Prof)
    O.CheckProfiling.emplace(Records); // time per callback, by Check::getID()
  return O;
}

class AnalysisConsumer : public ASTConsumer {
public:
  AnalysisConsumer(const AnalysisOptions &Opts, TURun &Run)
      : Opts(Opts), Run(Run), Others(Opts.Program ? *Opts.Program : NoTable), Program(Others),
        Sink(Run.Result.Findings, &Program), Finder(finderOptions(Opts, Records)) {
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
    runTestHooks(Run.Result.File);
    if (!Run.CaseMatches.empty() && !Run.CaseMatchesFound)
      return;  // the next parse finds those headers, and is analysed instead
    SkippedText Skipped(Ctx.getSourceManager(), Run.Skipped);
    // A dropped loop inside another is met in the second rewrite.
    if (Run.Recoveries < 2 && !Run.ErrorLocs.empty()) {
      Run.Rewritten = rewriteDroppedLoops(Ctx, Run.Done);
      if (!Run.Rewritten.empty())
        return;  // the next parse is analysed instead
    }
    Stopwatch All;
    if (Run.PchHoldsUserHeaders)
      addDeclsFromPch(Ctx);
    Ctx.setTraversalScope(UserDecls);
    PlaceFactsScope PlaceFacts(Ctx, &Program, Run.ErrorLocs);
    Finder.matchAST(Ctx);
    for (auto &C : Checks) {
      Stopwatch W;
      C->onEndOfTranslationUnit(Ctx, Run.ErrorLocs);
      if (Opts.Prof)
        Opts.Prof->addCheck(C->getID(), W.seconds());
    }
    if (Opts.Prof)
      for (const auto &R : Records)
        Opts.Prof->addCheck(R.getKey(), R.getValue().getWallTime());
    Stopwatch Summary;
    summarise(Ctx);
    if (Opts.Prof)
      Opts.Prof->addPhase("program summary", Summary.seconds());
    Run.CheckSeconds += All.seconds();
  }

private:
  // The top-level declarations of the project's headers in the PCH, in the
  // order a parse would have handed them over: before the file's own.
  void addDeclsFromPch(ASTContext &Ctx) {
    std::vector<Decl *> FromPch;
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (D->isFromASTFile() && !D->isImplicit() && D->getLocation().isValid() &&
          !SM->isInSystemHeader(SM->getExpansionLoc(D->getLocation())))
        FromPch.push_back(D);
    UserDecls.insert(UserDecls.begin(), FromPch.begin(), FromPch.end());
  }

  // What this TU tells the others: its functions defined in the main file
  // (a header's are parsed by each TU that calls them) and whether it may
  // use CUDA; what it took from them.
  void summarise(ASTContext &Ctx) {
    std::vector<Decl *> Main;
    for (Decl *D : UserDecls)
      if (SM->isInMainFile(SM->getExpansionLoc(D->getLocation())))
        Main.push_back(D);
    TUSummary &S = Run.Result.Summary;
    CallSummaries Own(Ctx, &Program);
    auto Where = [&](SourceLocation Loc) {
      Position P = resolvePosition(Loc, *SM);
      return FilePos{P.File, P.Line, P.Column};
    };
    S.Functions = exportSummaries(Own, Main, Where);
    exportPlaceFacts(S.Functions);
    exportCallbacks(Own, S.Functions, Where);
    // Code that did not parse is not in the AST; its tokens still tell.
    S.TakesDevice = takesDeviceFromCaller(Ctx);
    S.DefinesMain = definesMain(Ctx);
    S.MayUseCuda = codeMayUseCuda(Ctx) || Run.MissingProjectHeader ||
                   droppedTextMayNameGpu(Ctx, Run.ErrorLocs);
    S.Asked = Program.asked();
    // The program's table will hold this TU's own facts too (what its calls
    // pass): seen now, they must not make it look stale.
    FunctionTable WithOwn = Others;
    mergeInto(WithOwn, S.Functions);
    S.Seen = digestOf(WithOwn, S.Asked);
  }

  const AnalysisOptions &Opts;
  TURun &Run;
  const FunctionTable NoTable;
  const FunctionTable &Others;
  ProgramSummaries Program;
  FindingCollector Sink;
  llvm::StringMap<llvm::TimeRecord> Records;
  ast_matchers::MatchFinder Finder;
  std::vector<std::unique_ptr<Check>> Checks;
  std::vector<Decl *> UserDecls;
  const SourceManager *SM = nullptr;
};

class AnalysisAction : public ASTFrontendAction {
public:
  AnalysisAction(const AnalysisOptions &Opts, TURun &Run) : Opts(Opts), Run(Run), Result(Run.Result) {}

  bool PrepareToExecuteAction(CompilerInstance &CI) override {
    if (Run.Included && !Run.Recoveries)  // the first parse read the same files
      CI.addDependencyCollector(Run.Included);
    return true;
  }

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getFrontendOpts().SkipFunctionBodies = Opts.SkipSystemBodies;
    // Errors are reported per file by the driver, not as clang's
    // "N errors generated." (printed only when carets are shown).
    CI.getDiagnosticOpts().ShowCarets = false;
    Run.ErrorLocs.clear(); // another compile command's, of a SourceManager gone
    Run.Skipped.clear();
    Run.MissingProjectHeader = false;
    Preprocessor &PP = CI.getPreprocessor();
    PP.SetSuppressIncludeNotFoundError(true);
    PP.addPPCallbacks(std::make_unique<MissingIncludes>(PP, Run));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<AnalysisConsumer>(Opts, Run);
  }

private:
  const AnalysisOptions &Opts;
  TURun &Run;
  TUResult &Result;
};

class ActionFactory : public tooling::FrontendActionFactory {
public:
  ActionFactory(const AnalysisOptions &Opts, TURun &Run) : Opts(Opts), Run(Run) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<AnalysisAction>(Opts, Run);
  }

private:
  const AnalysisOptions &Opts;
  TURun &Run;
};

} // namespace

static int runTool(const tooling::CompilationDatabase &DB, const std::string &File,
                   const AnalysisOptions &Opts, const std::string &Pch, TURun &Run,
                   const std::map<std::string, std::string> &Files) {
  TUResult &Result = Run.Result;
  // A file system of its own: the process-wide one follows each compile
  // command's directory with chdir, which races between the worker threads
  // and leaves the process in a build directory (SARIF's %SRCROOT%).
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Fs = llvm::vfs::createPhysicalFileSystem();
  if (Run.CaseMatchesFound) {
    // Headers asked for in another letter case are found as their files,
    // and named so in what is reported.
    std::vector<std::pair<std::string, std::string>> Remapped(Run.CaseMatches.begin(),
                                                              Run.CaseMatches.end());
    Fs = llvm::vfs::RedirectingFileSystem::create(Remapped, /*UseExternalNames=*/true, *Fs);
  }
  tooling::ClangTool Tool(DB, {File}, std::make_shared<PCHContainerOperations>(), Fs);
  ErrorCollector Errors(Result.Errors, Run.ErrorLocs);
  Tool.setDiagnosticConsumer(&Errors);
  Tool.setPrintErrorMessage(false);
  for (const auto &[Path, Text] : Files)
    Tool.mapVirtualFile(Path, Text);
  Tool.clearArgumentsAdjusters();
  Tool.appendArgumentsAdjuster(analysisArgumentsAdjuster(Opts));
  if (!Pch.empty())
    Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
        {"-include-pch", Pch}, tooling::ArgumentInsertPosition::END));
  ActionFactory Factory(Opts, Run);
  return Tool.run(&Factory);
}

void runFrontend(const tooling::CompilationDatabase &DB, const std::string &File,
                 const AnalysisOptions &Opts, const std::string &Pch, TURun &Run) {
  TUResult &Result = Run.Result;
  Result.File = File;
  int RC = runTool(DB, File, Opts, Pch, Run, Opts.Overlays);
  if (!Run.CaseMatches.empty()) {
    Run.CaseMatchesFound = true;
    Result.Errors = Run.CaseMatchErrors;  // those includes fail here all the same
    RC = runTool(DB, File, Opts, Pch, Run, Opts.Overlays);
  }
  // The errors to report are the code's own, from the first parse.
  std::vector<std::string> Errors = Result.Errors;
  std::map<std::string, std::string> Files = Opts.Overlays;
  while (!Run.Rewritten.empty()) {
    for (auto &[Path, Text] : Run.Rewritten)
      Files[Path] = std::move(Text);
    Run.Rewritten.clear();
    ++Run.Recoveries;
    Result.Errors.clear();
    RC = runTool(DB, File, Opts, Pch, Run, Files);
  }
  if (Run.Recoveries) {
    Result.Errors = std::move(Errors);
    showAsWritten(Result.Findings, Run.Done);
  }
  if (RC != 0 && Result.Errors.empty())
    Result.Failure = "the compiler could not process the compile command";
}

} // namespace torchtidy
