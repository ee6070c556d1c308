// Tensor factories (torch::zeros, at::randn, torch::from_blob, ...) and
// whether a call names the device it creates on.
#pragma once

#include "clang/AST/Expr.h"

namespace torchtidy {

// A factory of at:: or torch:: that makes a new tensor from sizes or
// values: zeros, ones, randn, rand, randint, randperm, empty, full, arange,
// linspace, logspace, eye, from_blob, tensor. Not the *_like factories,
// which take the device of their input.
bool isTensorFactory(const clang::FunctionDecl *FD);

// from_blob and tensor({...}) read host memory: they must start on the CPU.
bool factoryReadsHostData(const clang::FunctionDecl *FD);

// Some explicitly written argument says where the tensor goes: a Device,
// a DeviceType, or a tensor's options() / device().
bool callNamesDevice(const clang::CallExpr &Call);

// Options in an explicit argument whose contents the code does not show: a
// TensorOptions variable or field, or the result of a function of the
// user's (also inside a builder chain); that expression, null when none.
const clang::Expr *opaqueOptionsArg(const clang::CallExpr &Call);
// The same within any statement.
const clang::Expr *opaqueOptionsIn(const clang::Stmt *S);

// The explicit (not defaulted) arguments of a call.
unsigned explicitArgCount(const clang::CallExpr &Call);

} // namespace torchtidy
