// Code Clang could not build because an argument or the object has no
// type: it comes from a header that is missing (OpenCV's cv::Mat without
// OpenCV installed). Clang keeps such a call with the name it looked up,
// or only the object and the member's spelling, and drops an initialiser
// with such a call; real projects are full of them, and what they pass or
// would have given must still count.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <vector>

namespace torchtidy {

// The member a callee names that Clang kept only as a RecoveryExpr
// (obj.name or obj->name on an object whose type it could not complete),
// read from the tokens; empty when the callee is no such expression.
llvm::StringRef recoveredMemberName(const clang::Expr *Callee, clang::ASTContext &Ctx);

// The functions a call may call that Clang left unresolved because an
// argument has no type (it comes from a missing header): those of the name
// it looked up, or of the object's class with the member's name, that take
// as many arguments. Empty for any other call.
std::vector<const clang::FunctionDecl *> unresolvedCallees(const clang::CallExpr &Call);

// The function a call calls: its direct callee, or the only function an
// unresolved call may call (unresolvedCallees); null otherwise.
const clang::FunctionDecl *calleeOf(const clang::CallExpr &Call);

// A variable written with an initialiser that Clang dropped because it had
// errors (std::vector<torch::Tensor> r = detect(frame) with frame's type
// unknown): what it starts with is unknown.
bool lostInitializer(const clang::VarDecl &V);

} // namespace torchtidy
