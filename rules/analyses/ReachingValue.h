// What the code before a statement settles on every path to it: the one
// value a variable holds where it is read (x = x.cpu(); ... x[i].item()),
// so that a variable given values in several places is not judged by all
// of them at once, or a module moved to the CPU before its forward.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace torchtidy {

enum class Step { Next, Found, Stop };

// Walks back from At (in FD's body) over the statements that run before it
// on every path: the earlier statements of each block around it, innermost
// first, each judged by Earlier. Spoils judges the other parts of each
// statement around At (all of a loop: its later statements run before At
// from the second iteration on). True when Earlier found its answer before
// anything stopped the walk: Spoils, a lambda around At, a label or case
// label on the way, a goto in the function, or the start of the body.
bool walkBack(const clang::Stmt &At, const clang::FunctionDecl &FD,
              llvm::function_ref<Step(const clang::Stmt &)> Earlier,
              llvm::function_ref<bool(const clang::Stmt &)> Spoils);

// The value Use reads: the last plain assignment (v = x) or the
// initialiser of a local before Use, when nothing between them changes the
// variable (walkBack). Null otherwise.
const clang::Expr *reachingValue(const clang::DeclRefExpr &Use);

} // namespace torchtidy
