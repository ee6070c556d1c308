#pragma once

#include "framework/Check.h"

namespace torchtidy {

// torch-hardcoded-device: a CUDA device fixed in code that should follow
// one device variable (see docs/rules/torch-hardcoded-device.md).
class HardcodedDeviceCheck : public Check {
public:
  static const RuleInfo Info;
  using Check::Check;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit(clang::ASTContext &Ctx,
                              llvm::ArrayRef<clang::SourceLocation> Errors) override;

private:
  void checkCudaCall(const clang::CXXMemberCallExpr &Call, clang::ASTContext &Ctx);
  void checkUnbuiltCudaCall(const clang::Expr &Member, clang::ASTContext &Ctx);
  void checkLiteral(const clang::Expr &Leaf, clang::ASTContext &Ctx);
  void checkUse(const clang::Expr &Leaf, clang::DynTypedNode Consumer, clang::ASTContext &Ctx);
  // A device variable, member or assignment fixed to CUDA: Subject names it.
  void reportFixed(clang::SourceLocation Loc, const std::string &Subject, const std::string &Fix,
                   const clang::SourceManager &SM);
  bool skipsProgramCode(const clang::Stmt &S, clang::ASTContext &Ctx) const;
};

} // namespace torchtidy
