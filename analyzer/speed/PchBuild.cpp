#include "speed/PchBuild.h"

#include "frontend/IncludedFiles.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace torchtidy {
namespace {

class FirstError : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level >= DiagnosticsEngine::Error && Message.empty()) {
      llvm::SmallString<256> Text;
      Info.FormatDiagnostic(Text);
      Message = Text.str().str();
    }
  }
  std::string Message;
};

// Sema asks every consumer; a body is skipped when all agree. The
// PCHGenerator agrees to all: the project's headers keep theirs, as in the
// analysis (AnalysisConsumer::shouldSkipFunctionBody).
class SkipSystemBodies : public ASTConsumer {
public:
  void Initialize(ASTContext &Ctx) override { SM = &Ctx.getSourceManager(); }
  bool shouldSkipFunctionBody(Decl *D) override {
    return SM->isInSystemHeader(SM->getExpansionLoc(D->getLocation()));
  }

private:
  const SourceManager *SM = nullptr;
};

class BuildPchAction : public GeneratePCHAction {
public:
  BuildPchAction(bool SkipBodies, std::shared_ptr<IncludedFiles> Inputs, std::string Header,
                 bool &Guarded)
      : SkipBodies(SkipBodies), Inputs(std::move(Inputs)), Header(std::move(Header)),
        Guarded(Guarded) {}
  bool PrepareToExecuteAction(CompilerInstance &CI) override {
    // As the analysis does: system function bodies are not parsed.
    CI.getFrontendOpts().SkipFunctionBodies = SkipBodies;
    // A failed build is reported through its first error, not clang's
    // bare "N errors generated." on stderr.
    CI.getDiagnosticOpts().ShowCarets = false;
    CI.addDependencyCollector(Inputs);
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef InFile) override {
    std::unique_ptr<ASTConsumer> Generator = GeneratePCHAction::CreateASTConsumer(CI, InFile);
    if (!Generator)
      return nullptr;
    std::vector<std::unique_ptr<ASTConsumer>> Both;
    Both.push_back(std::move(Generator));
    Both.push_back(std::make_unique<SkipSystemBodies>());
    return std::make_unique<MultiplexConsumer>(std::move(Both));
  }
  // The file includes the PCH's headers again after loading it: a project
  // header without an include guard (or #pragma once) would be parsed twice.
  void EndSourceFileAction() override {
    HeaderSearch &HS = getCompilerInstance().getPreprocessor().getHeaderSearchInfo();
    FileManager &FM = getCompilerInstance().getFileManager();
    for (const std::string &F : Inputs->userFiles())
      if (F != Header)
        if (OptionalFileEntryRef FE = FM.getOptionalFileRef(F))
          Guarded &= HS.isFileMultipleIncludeGuarded(*FE);
    GeneratePCHAction::EndSourceFileAction();
  }

private:
  bool SkipBodies;
  std::shared_ptr<IncludedFiles> Inputs;
  std::string Header;
  bool &Guarded;
};

} // namespace

PchBuildResult buildPch(const std::vector<std::string> &Args, const std::string &Directory,
                        const std::string &Header, const std::string &Pch, bool SkipBodies) {
  std::vector<std::string> Argv = Args;
  Argv.insert(Argv.end(), {"-x", "c++-header", Header, "-o", Pch});
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = llvm::vfs::createPhysicalFileSystem();
  FS->setCurrentWorkingDirectory(Directory);
  auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), FS);
  auto Inputs = std::make_shared<IncludedFiles>();
  bool Guarded = true;
  tooling::ToolInvocation Inv(Argv, std::make_unique<BuildPchAction>(SkipBodies, Inputs, Header, Guarded),
                              Files.get());
  FirstError Diags;
  Inv.setDiagnosticConsumer(&Diags);
  PchBuildResult R;
  bool Built = Inv.run() && !Diags.getNumErrors();
  for (const std::string &F : Inputs->userFiles())
    if (F != Header) {
      R.UserInputs.push_back(F);
      R.ReadUserHeader = true;
    }
  for (const std::string &F : Inputs->getDependencies())
    if (F != Header)
      R.Inputs.push_back(F);
  R.Missing = Inputs->missing();
  if (!Built) {
    R.Error = Diags.Message.empty() ? "the compiler could not precompile it" : Diags.Message;
    return R;
  }
  R.Usable = Guarded;
  return R;
}

} // namespace torchtidy
