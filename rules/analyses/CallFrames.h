// Provenance asked for one call: while a callee's returns are read for a
// call site, a parameter of the callee stands for that call's argument
// (getSigmas(n, device = kCPU) returns a host tensor for this call, even
// when another call passes a CUDA device).
#pragma once

#include "analyses/VarValues.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <utility>
#include <vector>

namespace torchtidy {

// While it lives, the parameters of Def stand for Call's arguments.
class CallFrame {
public:
  CallFrame(const clang::CallExpr &Call, const clang::FunctionDecl &Def);
  ~CallFrame();
  CallFrame(const CallFrame &) = delete;
  CallFrame &operator=(const CallFrame &) = delete;
};

// While it lives, the frames from the From-th on bind nothing. With From
// 0, no parameter stands for an argument: answers remembered for every
// call must not depend on one.
class HiddenFrames {
public:
  explicit HiddenFrames(size_t From = 0);
  ~HiddenFrames();
  HiddenFrames(const HiddenFrames &) = delete;
  HiddenFrames &operator=(const HiddenFrames &) = delete;

private:
  std::vector<std::pair<const clang::CallExpr *, const clang::FunctionDecl *>> Hidden;
};

// The argument the innermost frame of P's function binds to P (a default
// argument's expression when the call leaves it out), and in Outside the
// number of frames outside that call; null when no frame binds P.
const clang::Expr *boundArgument(const clang::ParmVarDecl &P, size_t &Outside);

// Fn's answer for P's bound argument, asked as the caller sees it (that
// frame and those inside it hidden); nothing when no frame binds P.
template <typename T>
std::optional<T> forBoundArgument(const clang::ParmVarDecl &P,
                                  llvm::function_ref<T(const clang::Expr *)> Fn) {
  size_t Outside = 0;
  const clang::Expr *Arg = boundArgument(P, Outside);
  if (!Arg)
    return std::nullopt;
  HiddenFrames Hide(Outside);
  return Fn(Arg);
}

// The same for V when it is a parameter its function never changes (what
// the argument gives is then what V holds); nothing otherwise.
template <typename T>
std::optional<T> forBoundVariable(const clang::VarDecl *V,
                                  llvm::function_ref<T(const clang::Expr *)> Fn) {
  const auto *P = llvm::dyn_cast_or_null<clang::ParmVarDecl>(V);
  if (!P || !isUnchanged(*P))
    return std::nullopt;
  return forBoundArgument<T>(*P, Fn);
}

} // namespace torchtidy
