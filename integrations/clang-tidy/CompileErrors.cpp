#include "CompileErrors.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"

using namespace clang;

namespace torchtidy {
namespace {

class MissingHeaders : public PPCallbacks {
public:
  MissingHeaders(DiagnosticsEngine &Diags, unsigned ID) : Diags(Diags), ID(ID) {}
  void InclusionDirective(SourceLocation, const Token &, StringRef FileName, bool,
                          CharSourceRange FilenameRange, OptionalFileEntryRef File, StringRef,
                          StringRef, const Module *, bool, SrcMgr::CharacteristicKind) override {
    if (!File)
      Diags.Report(FilenameRange.getBegin(), ID) << FileName;
  }

private:
  DiagnosticsEngine &Diags;
  unsigned ID;
};

} // namespace

CompileErrors::CompileErrors(DiagnosticsEngine &Diags)
    : Shown(Diags.getClient()), OwnedShown(Diags.takeClient()),
      // Clang's own wording, at Error rather than Fatal.
      MissingHeader(Diags.getCustomDiagID(DiagnosticsEngine::Error, "'%0' file not found")),
      ErrorLimit(Diags.getDiagnosticOptions().ErrorLimit) {}

CompileErrors &CompileErrors::install(Preprocessor &PP) {
  DiagnosticsEngine &Diags = PP.getDiagnostics();
  auto *Errors = new CompileErrors(Diags);
  Diags.setClient(Errors, /*ShouldOwnClient=*/true);
  Diags.setErrorLimit(0);
  PP.SetSuppressIncludeNotFoundError(true);
  PP.addPPCallbacks(std::make_unique<MissingHeaders>(Diags, Errors->MissingHeader));
  return *Errors;
}

void CompileErrors::HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
  // The rules read code Clang dropped around errors; an include dropped
  // nothing (the standalone tool does not record it either).
  if (Level >= DiagnosticsEngine::Error && Info.getID() != MissingHeader)
    Locs.push_back(Info.getLocation());
  if (Level != DiagnosticsEngine::Note) // shown and counted nowhere, as after a fatal error
    Hidden = AfterMissingHeader ||
             (Level >= DiagnosticsEngine::Error && ErrorLimit && ShownErrors >= ErrorLimit);
  if (Hidden)
    return;
  ShownErrors += Level >= DiagnosticsEngine::Error;
  AfterMissingHeader = Info.getID() == MissingHeader;
  Shown->HandleDiagnostic(Level, Info);
  mirrorCounts();
}

std::shared_ptr<SharedCompileErrors> SharedCompileErrors::of(const tidy::ClangTidyContext *Ctx) {
  // Expired once the translation unit's checks are gone.
  static llvm::DenseMap<const tidy::ClangTidyContext *, std::weak_ptr<SharedCompileErrors>> Live;
  std::weak_ptr<SharedCompileErrors> &Slot = Live[Ctx];
  std::shared_ptr<SharedCompileErrors> S = Slot.lock();
  if (!S)
    Slot = S = std::make_shared<SharedCompileErrors>();
  return S;
}

} // namespace torchtidy
