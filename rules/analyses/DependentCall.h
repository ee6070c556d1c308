// LibTorch calls in templates that are never instantiated, where the tensor's
// type depends on a template parameter (t.item<T>(), t.to(device) with t a T)
// and Clang resolves nothing: real projects written for another LibTorch
// often have such templates. An instantiated template is analysed in its
// instantiations instead, so that nothing is reported twice.
#pragma once

#include "analyses/CallSummary.h"

#include <optional>

namespace torchtidy {

// The host sync, copy or clear such a call makes, judged by the member's
// name (a syncing method of SyncingOps.def, cpu, cuda, to with a device
// argument, or zero_grad)
// on an object whose type is dependent or a tensor. The same outside
// templates, for an object whose type Clang lost to an error (a variable of
// a type from a missing header).
std::optional<Effect> classifyDependentCall(const clang::CallExpr &Call, clang::ASTContext &Ctx);

// f(args) with a dependent argument in such a template, where the name finds
// one function of the code (no template, no overloads) taking that many
// arguments: that function, whose summary then holds for the call.
const clang::FunctionDecl *dependentCallee(const clang::CallExpr &Call, clang::ASTContext &Ctx);

} // namespace torchtidy
