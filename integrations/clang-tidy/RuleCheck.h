// One clang-tidy check wrapping one torchtidy rule: the rule's own code,
// with its findings sent to clang-tidy's diagnostics and its options read
// from clang-tidy's configuration.
#pragma once

#include "CompileErrors.h"
#include "checks/Registry.h"

#include "ClangTidyCheck.h"

namespace torchtidy {

class RuleCheck : public clang::tidy::ClangTidyCheck, private DiagSink {
public:
  RuleCheck(const CheckFactory &Factory, llvm::StringRef Name, clang::tidy::ClangTidyContext *Ctx);

  bool isLanguageVersionSupported(const clang::LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerPPCallbacks(const clang::SourceManager &SM, clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

private:
  void report(const Diag &D, const clang::SourceManager &SM) override;

  const RuleInfo &Info;
  CheckOptions::Map Values; // outlives Rule, which reads it
  std::unique_ptr<Check> Rule;
  // The rule's matchers, run at the end of the translation unit over the
  // same declarations the standalone tool traverses.
  clang::ast_matchers::MatchFinder UserCode;
  clang::ASTContext *Context = nullptr;
  std::shared_ptr<SharedCompileErrors> Errors;
};

} // namespace torchtidy
