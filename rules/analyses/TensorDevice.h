// Devices followed through the code: a device held in a variable that is
// never changed (torch::Device cpu("cpu")), the device a TensorOptions
// builder sets; and the tuples and returns that values pass through.
// Whether a tensor already lives on the device a copy targets is
// DeviceOrigin.h's.
#pragma once

#include "analyses/DeviceExpr.h"
#include "analyses/VarValues.h"

#include "clang/AST/Stmt.h"

#include <vector>

namespace torchtidy {

// The device argument a TensorOptions expression sets: d in
// TensorOptions().dtype(..).device(d) or torch::device(d); null otherwise.
const clang::Expr *optionsDeviceArg(const clang::Expr *E);

// What a Device, DeviceType or TensorOptions expression names, as
// literalDeviceKind, also through builder chains and through local
// variables initialised once and never changed.
DeviceKind knownDeviceKind(const clang::Expr *E);

// Options that set a device: written in the expression (mentionsDevice), or
// in the initialiser of the TensorOptions variable it names.
bool optionsCarryDevice(const clang::Expr *E);

// The tensor a Device or TensorOptions expression takes its device from:
// t in t.options(), t.device(), t.options().dtype(..), also through a local
// initialised once with one; null otherwise.
const clang::Expr *deviceSourceTensor(const clang::Expr *E);

// A Device or TensorOptions type.
bool isDeviceOrOptionsType(clang::QualType T);

// What a chain of TensorOptions setters that do not set the device starts
// from: opts in opts.dtype(torch::kFloat), x.options() in x.options().dtype(..).
const clang::Expr *optionsChainBase(const clang::Expr *E);

// The LibTorch op whose tuple of tensors E takes an element of:
// std::get<I>(torch::max(x, 0)), also through a local never changed, or a
// structured binding auto [v, i] = torch::max(x, 0); null otherwise.
const clang::CallExpr *tupleOp(const clang::Expr *E);

// Element I of a tuple made in place: std::tuple/std::pair constructed from
// its elements ({a, b} in a return), std::make_tuple or std::make_pair;
// null otherwise.
const clang::Expr *tupleElement(const clang::Expr *E, unsigned I);

// The return statements of a body, not those of the lambdas in it.
void collectReturns(const clang::Stmt *S, std::vector<const clang::ReturnStmt *> &Out);

} // namespace torchtidy
