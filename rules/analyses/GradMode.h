// Is autograd recording where a statement runs? Shared by the checks that
// care whether a forward or an accumulated loss builds a graph.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace torchtidy {

// Recording is off at S: a torch::NoGradGuard, c10::InferenceMode (not
// given false) or AutoGradMode(false) declared before S in an enclosing
// block of the same function, or torch::GradMode::set_enabled(false) called
// before S in such a block.
bool isUnderNoGrad(const clang::Stmt &S, clang::ASTContext &Ctx);

} // namespace torchtidy
