// Who calls what in the user code of one translation unit: the facts the
// provenance analyses (PlaceFacts) prove parameters by, and the calls that
// keep a function of the program alive.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace torchtidy {

// The calls of each function (by canonical declaration), the functions
// whose address is taken (called from where the code does not show), and
// the functions defined.
struct CallIndex {
  std::map<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> Calls;
  std::set<const clang::FunctionDecl *> AddressTaken;
  std::vector<const clang::FunctionDecl *> Defined;
};

// The index of Ctx's traversal scope (the user's declarations), template
// instantiations included.
CallIndex indexCalls(clang::ASTContext &Ctx);

// The unresolved name that stands for a call of an object whose type Clang
// lost: Class's call operator, or any class's when Class is empty.
inline std::string callOperatorName(llvm::StringRef Class) {
  return Class.empty() ? "operator()" : Class.str() + "::operator()";
}

// The names the user's code calls without Clang resolving them: in
// templates (a generic lambda's call, instantiated only where the standard
// library's bodies are parsed) and in the code Clang dropped around Errors.
std::set<std::string> unresolvedCallNames(clang::ASTContext &Ctx,
                                          llvm::ArrayRef<clang::SourceLocation> Errors);

} // namespace torchtidy
