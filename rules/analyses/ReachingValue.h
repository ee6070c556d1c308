// The one value a variable holds where it is read, when the code before
// the read settles it on every path (x = x.cpu(); ... x[i].item()), so
// that a variable given values in several places is not judged by all of
// them at once.
#pragma once

#include "clang/AST/Expr.h"

namespace torchtidy {

// The value Use reads: the last plain assignment (v = x) or the
// initialiser of a local before Use in a block around it, when nothing
// between them changes the variable, no loop around Use changes it, Use is
// not in a lambda and its function has no goto. Null otherwise.
const clang::Expr *reachingValue(const clang::DeclRefExpr &Use);

} // namespace torchtidy
