// Functions no program can run: a function template with internal linkage
// that nothing instantiates (doctest's TEST_CASE, and a fixture's method,
// under DOCTEST_CONFIG_DISABLE), and a function with internal linkage that
// only such code refers to (a static helper of those test cases), or that
// nothing refers to in a file without errors; and a function of a program
// with a main() that no file of it runs (PlaceFacts' uncalledInProgram).
// Their loops run in no program, so the per-iteration checks leave them
// alone.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseSet.h"

namespace torchtidy {

class DeadCode {
public:
  explicit DeadCode(clang::ASTContext &Ctx);
  clang::ASTContext &context() const { return Ctx; }
  // S is in the body of a dead function (or of a lambda written there).
  bool contains(const clang::Stmt &S) const;

private:
  clang::ASTContext &Ctx;
  llvm::DenseSet<const clang::FunctionDecl *> Dead;  // canonical declarations
};

} // namespace torchtidy
