// Whether a tensor already lives on the device a copy targets, from where
// both come: the variable, field or device they are made from, followed
// through variables, LibTorch ops, tuples and the returns of functions of
// the code (read per call: CallFrames).
#pragma once

#include "clang/AST/Expr.h"

namespace torchtidy {

// The tensor provably lives on the device Dest names (a Device,
// TensorOptions or tensor argument of .to()): both come from the same
// variable, e.g. a tensor made with TensorOptions().device(d),
// torch::device(d) or other.options(), or the result of an earlier x.to(d),
// through unchanged variables and the returns of functions in the code.
bool isProvablyOnDevice(const clang::Expr *Tensor, const clang::Expr *Dest);

} // namespace torchtidy
