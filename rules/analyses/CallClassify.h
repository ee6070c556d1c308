// The part of the per-call classification (CallClassify.cpp) that the
// call summaries also use when they settle a parameter's condition.
#pragma once

#include "analyses/CallSummary.h"

#include <optional>

namespace torchtidy {

// x.to(...) / x.cuda(): a copy to the device, a read back to the CPU, or
// neither (a dtype conversion, pinned memory with non_blocking=true).
// AssumeDevice: TensorOptions whose device is not known here are taken to
// carry one (the caller's, for a parameter).
std::optional<Effect> classifyTransfer(const clang::CXXMemberCallExpr &Call,
                                       clang::ASTContext &Ctx, bool AssumeDevice = false);

} // namespace torchtidy
