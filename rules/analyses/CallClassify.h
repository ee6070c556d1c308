// Helpers of the per-call classification (CallClassify.cpp) that the
// call summaries also use when they settle a parameter's condition.
#pragma once

#include "analyses/CallSummary.h"

#include <optional>

namespace torchtidy {

// The value of a constant bool expression; none when it is not one.
std::optional<bool> constantBool(const clang::Expr *A, clang::ASTContext &Ctx);

// x.to(...) / x.cuda(): a copy to the device, a read back to the CPU, or
// neither (a dtype conversion, pinned memory with non_blocking=true).
// AssumeDevice: TensorOptions whose device is not known here are taken to
// carry one (the caller's, for a parameter).
std::optional<Effect> classifyTransfer(const clang::CXXMemberCallExpr &Call,
                                       clang::ASTContext &Ctx, bool AssumeDevice = false);

} // namespace torchtidy
