// Lambdas and loops: where a lambda's body runs. One handed to a call where
// it is written runs there; one kept in a variable of a loop's body and run
// there (called through it, or handed to code that runs it) is that loop's
// own code.
#pragma once

#include "analyses/LoopContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

namespace torchtidy {

// A lambda handed to a call where it is written (a thread pool's job,
// std::for_each) runs on every pass through that call, unless the callee's
// body shows otherwise; one kept in a variable runs where it is called.
bool isHandedToCall(const clang::LambdaExpr &L, clang::ASTContext &Ctx);

// The context of a lambda that is its loop's own code (LoopContext::Via
// names the call that runs it); none for any other.
LoopContext loopLambdaContext(const clang::LambdaExpr &L, clang::ASTContext &Ctx);

} // namespace torchtidy
