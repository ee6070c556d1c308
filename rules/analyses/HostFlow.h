// The pieces of host provenance (HostTensor) that follow values through
// containers of tensors and through the parameters of functions; shared by
// HostTensor.cpp, HostContainer.cpp and HostFacts.cpp.
#pragma once

#include "analyses/VarValues.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace torchtidy::host {

// Variables, ops, returns and parameters are followed a few steps deep.
constexpr int MaxDepth = 12;

// The variables whose values are being looked at.
using Opened = llvm::SmallPtrSet<const clang::VarDecl *, 4>;

// The tensor lives on the host (isProvablyOnCpu, Depth steps in).
bool onHost(const clang::Expr *E, int Depth, Opened &Open);

// A container of tensors: std::vector<torch::Tensor>, TensorList, a tuple.
bool holdsTensors(clang::QualType T);

// Every tensor the container holds lives on the host: a local
// std::vector<torch::Tensor> whose every insertion (push_back,
// emplace_back, an initialiser, v[i] = x) is on the host and that never
// escapes where it could change unseen (a non-const reference, its
// address); a parameter whose every caller passes such a container; a
// function of the program whose every return is one.
bool containerOnHost(const clang::Expr *E, int Depth, Opened &Open);

// The container E takes an element of (v[i], v.at(i), v.front(),
// v.back() of a container of tensors); null when E is no such element.
const clang::Expr *elementContainer(const clang::Expr *E);

// Every call of the parameter's function in the program passes a host
// tensor (or, for a container parameter, a host container), and the
// function never changes the parameter.
bool paramOnHost(const clang::ParmVarDecl &P, int Depth, Opened &Open);

// A function of the code (not LibTorch's, not the standard library's)
// whose every return lives on the host: a tensor there, or a container of
// host tensors; one of another file through its exported fact.
bool returnsHost(const clang::CallExpr &Call, int Depth, Opened &Open);

// A function of the program, defined in another file, whose every return
// lives on the host (a tensor, or a container of host tensors).
bool returnsHostElsewhere(const clang::FunctionDecl &FD);

} // namespace torchtidy::host
