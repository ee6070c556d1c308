// A module that provably stays on the host: built in the function that
// calls its forward, from nothing that names a device, and never moved or
// handed anywhere there; or moved to the CPU before its forward.
#pragma once

#include "clang/AST/Expr.h"

namespace torchtidy {

// Call is a module's forward (isModuleForwardCall) on a local variable of
// the function (a module, a std::shared_ptr to one or its ModuleHolder)
// initialised by constructing it (std::make_shared too); the variable is
// only used to call its methods other than to(), and the function names
// no device anywhere. Its parameters are then where modules are made: on
// the host.
bool forwardOfHostModule(const clang::CallExpr &Call);

// Call is a module's forward on a local variable that the statements before
// it in its function move to a device (net->to(device)) and use no other
// way than to call its methods (walkBack): that device's expression.
const clang::Expr *deviceModuleMovedTo(const clang::CallExpr &Call);

// Call is a module's forward on a variable that the statements before it in
// its function move to the CPU (net->to(torch::kCPU)) and use no other way
// than to call its methods (walkBack): its parameters are on the CPU, so its
// output is too (an input elsewhere would fail against them).
bool forwardOfModuleMovedToCpu(const clang::CallExpr &Call);

} // namespace torchtidy
