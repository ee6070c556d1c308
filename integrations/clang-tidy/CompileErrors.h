// What Clang's errors leave to the rules under clang-tidy. A header that is
// not found, or one error past the error limit, is a fatal error to Clang,
// after which it instantiates no template; the standalone tool makes the
// first a plain error and sets no limit, and so does this, while
// clang-tidy's user sees what a fatal error would show: nothing the
// compiler says after the missing header, or after the limit's last error.
#pragma once

#include "clang/Basic/Diagnostic.h"

#include <memory>
#include <vector>

namespace clang {
class Preprocessor;
namespace tidy {
class ClangTidyContext;
}
} // namespace clang

namespace torchtidy {

class CompileErrors : public clang::DiagnosticConsumer {
public:
  // Puts itself in front of the preprocessor's diagnostic consumer, which
  // then owns it, and makes a missing header a plain error.
  static CompileErrors &install(clang::Preprocessor &PP);

  llvm::ArrayRef<clang::SourceLocation> locations() const { return Locs; }

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;
  void BeginSourceFile(const clang::LangOptions &LO, const clang::Preprocessor *PP) override {
    Shown->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override {
    Shown->EndSourceFile();
    mirrorCounts();
  }
  void finish() override { Shown->finish(); }
  bool IncludeInDiagnosticCounts() const override { return Shown->IncludeInDiagnosticCounts(); }

private:
  CompileErrors(clang::DiagnosticsEngine &Diags);
  // Clang's "N warnings and M errors generated." counts what clang-tidy
  // showed, its checks' warnings included.
  void mirrorCounts() {
    NumWarnings = Shown->getNumWarnings();
    NumErrors = Shown->getNumErrors();
  }

  clang::DiagnosticConsumer *Shown;
  std::unique_ptr<clang::DiagnosticConsumer> OwnedShown;
  unsigned MissingHeader; // the diagnostic that stands for Clang's fatal one
  unsigned ErrorLimit;    // the command's (-ferror-limit), for what is shown
  unsigned ShownErrors = 0;
  bool AfterMissingHeader = false;
  bool Hidden = false; // the last error or warning, and so its notes
  std::vector<clang::SourceLocation> Locs;
};

// The checks of one translation unit share one CompileErrors: clang-tidy
// makes them together and drops them together, before its next file.
class SharedCompileErrors {
public:
  static std::shared_ptr<SharedCompileErrors> of(const clang::tidy::ClangTidyContext *Ctx);

  void install(clang::Preprocessor &PP) {
    if (!Errors)
      Errors = &CompileErrors::install(PP);
  }
  llvm::ArrayRef<clang::SourceLocation> locations() const {
    return Errors ? Errors->locations() : llvm::ArrayRef<clang::SourceLocation>();
  }

private:
  CompileErrors *Errors = nullptr; // owned by the translation unit's diagnostics
};

} // namespace torchtidy
