// Which device an expression names: a CUDA literal (torch::kCUDA,
// c10::DeviceType::CUDA, torch::Device("cuda:1"), torch::Device(kCUDA, 1)),
// the CPU, or something only known at run time (a device variable).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace torchtidy {

enum class DeviceKind { Unknown, Cuda, Cpu };

// What device a DeviceType, Device or TensorOptions expression names when
// that is fixed in the code; Unknown for variables and anything computed.
DeviceKind literalDeviceKind(const clang::Expr *E);

// The device value E carries, looking through temporaries and the
// Device(DeviceType, index) / TensorOptions(Device) constructors; stops at
// a Device built from anything else (a string: Device("cuda:1")).
const clang::Expr *innerDeviceExpr(const clang::Expr *E);

// The innermost expression that spells the literal device (the kCUDA
// reference, or the Device constructor taking a string), for reporting.
const clang::Expr *deviceLiteralSite(const clang::Expr *E);

// Some part of S says where a tensor goes or is: a Device, a DeviceType, or
// another tensor's options().
bool mentionsDevice(const clang::Stmt *S);

// The tensor is known to be in pinned host memory: x.pin_memory(), a factory
// given .pinned_memory(true), or a variable initialised from one of those.
bool isProvablyPinned(const clang::Expr *Tensor);

// The tensor is known to be in pageable host memory: a C++ DataLoader
// batch's data or target (torch::data::Example), x.cpu() or x.to(torch::kCPU)
// of a source not known to be pinned, a factory on the CPU without
// .pinned_memory(true) and without options from a variable, from_blob, or a
// variable initialised from one of those. Parameters and other unknowns are
// not.
bool isProvablyPageable(const clang::Expr *Tensor);

// The names of torch::Device variables visible at the statement: locals
// declared before it in enclosing blocks, parameters, and fields of the
// enclosing class. Stops at a lambda without a capture-default.
std::vector<std::string> visibleDeviceVariables(const clang::Stmt &S, clang::ASTContext &Ctx);
} // namespace torchtidy
