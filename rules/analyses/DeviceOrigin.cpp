#include "analyses/DeviceOrigin.h"

#include "analyses/CallFrames.h"
#include "analyses/DeviceExpr.h"
#include "analyses/LocalModule.h"
#include "analyses/ReachingValue.h"
#include "analyses/TensorDevice.h"
#include "analyses/TensorFactory.h"
#include "analyses/TorchTypes.h"
#include "analyses/VarValues.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <functional>

using namespace clang;

namespace torchtidy {

// Variables and returns are followed a few steps deep; the operands of one
// expression are read at the depth of the expression.
static constexpr int MaxDepth = 16;

static const VarDecl *namedVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

// Where a device or a tensor comes from, as the declaration that settles
// it: a Device or TensorOptions variable, a field of the object, or a
// tensor variable whose device it is. Null when unknown (literals too:
// kCUDA and cuda:1 may differ).
static const Decl *deviceOrigin(const Expr *E, int Depth);
static const Decl *tensorOrigin(const Expr *T, int Depth);
static const Decl *assignedOrigin(const VarDecl &V, int Depth);

// p in *p, where p points to a Device or TensorOptions (Device *,
// std::shared_ptr<Device>, std::unique_ptr<Device>); null otherwise.
static const Expr *pointeeOf(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  const Expr *Ptr = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    Ptr = U->getSubExpr();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Star && Op->getNumArgs() == 1)
    Ptr = Op->getArg(0);
  return Ptr && isDeviceOrOptionsType(E->getType().getNonReferenceType()) ? Ptr : nullptr;
}

static const Decl *deviceOrigin(const Expr *E, int Depth) {
  if (!E || Depth > MaxDepth)
    return nullptr;
  if (isTensorType(E->getType()))  // x.to(other)
    return tensorOrigin(E, Depth);
  if (const Expr *Arg = optionsDeviceArg(E))
    return deviceOrigin(Arg, Depth + 1);
  const Expr *Base = optionsChainBase(E);
  const CXXMemberCallExpr *Of = asTensorMethodCall(Base, "options");
  if (!Of)
    Of = asTensorMethodCall(Base, "device");
  if (Of)
    return tensorOrigin(Of->getImplicitObjectArgument(), Depth + 1);
  // *p of a pointer (raw or smart) to a device: p holds one device as a
  // device variable does.
  bool Deref = false;
  if (const Expr *Ptr = pointeeOf(Base)) {
    Base = Ptr;
    Deref = true;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts()))
    return isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) &&
                   (Deref || isDeviceOrOptionsType(ME->getType()))
               ? ME->getMemberDecl()
               : nullptr;
  const VarDecl *V = namedVar(Base);
  if (!V || (!Deref && !isDeviceOrOptionsType(V->getType())))
    return nullptr;
  if (Deref)
    return isUnchanged(*V) ? V : nullptr;
  if (auto D = forBoundVariable<const Decl *>(V, [&](const Expr *A) { return deviceOrigin(A, Depth + 1); }))
    return *D;
  // A device variable reassigned at its selection site is still one device.
  if (const Decl *D = deviceOrigin(lastingInit(V), Depth + 1))
    return D;
  return V;
}

// An origin found in the callee Def, as the caller of Call sees it (its
// parameters stand for the arguments while the callee is read): a field
// stays one only for a call on the same object, and the callee's locals
// mean nothing outside.
static const Decl *originAtCaller(const Decl *D, const CallExpr &Call, const FunctionDecl &Def) {
  if (!D)
    return nullptr;
  // A field of the callee's object (one of the caller's own came with an
  // argument).
  const auto *Method = dyn_cast<CXXMethodDecl>(&Def);
  if (const auto *F = dyn_cast<FieldDecl>(D); F && Method && F->getParent() == Method->getParent()) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
    return MC && isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts()) ? D
                                                                                            : nullptr;
  }
  // A global, a variable a lambda captured, or one of the caller's.
  return D->getDeclContext() != static_cast<const DeclContext *>(&Def) ? D : nullptr;
}

// The origin every return of a function of the code agrees on; of element
// Element of the tuple it returns when Element >= 0.
static const Decl *returnedOrigin(const CallExpr &Call, int Depth, int Element = -1) {
  const FunctionDecl *FD = Call.getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || isTorchDecl(Def))
    return nullptr;
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Def->getBody(), Returns);
  CallFrame Frame(Call, *Def);
  const Decl *Common = nullptr;
  for (const ReturnStmt *R : Returns) {
    const Expr *Value = R->getRetValue();
    if (Value && Element >= 0)
      Value = tupleElement(Value, Element);
    const Decl *D = originAtCaller(tensorOrigin(Value, Depth + 1), Call, *Def);
    if (!D || (Common && D != Common))
      return nullptr;
    Common = D;
  }
  return Common;
}

// Folds the origin of a tensor operand, or of the tensors of a braced list
// (torch::cat({a, b})), into Common; false when two known origins differ.
static bool joinOrigin(const Expr *E, int Depth, const Decl *&Common) {
  if (!isTensorType(E->getType())) {
    if (!isa<CXXConstructExpr, CXXStdInitializerListExpr, MaterializeTemporaryExpr, InitListExpr,
             ImplicitCastExpr, CXXBindTemporaryExpr>(E))
      return true;
    return llvm::all_of(E->children(), [&](const Stmt *C) {
      return !isa<Expr>(C) || joinOrigin(cast<Expr>(C), Depth, Common);
    });
  }
  const Decl *D = tensorOrigin(E, Depth);
  if (D && Common && D != Common)
    return false;
  Common = D ? D : Common;
  return true;
}

// LibTorch computes where its tensor operands are (mixing devices is an
// error, but for CPU scalars): an op, a *_like factory or a module's
// forward gives a tensor of the origin its known operands agree on. An op
// that returns an operand (x.copy_(y)) stays where it is; an explicit
// device wins.
static const Decl *operandsOrigin(const CallExpr &Call, int Depth) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || isTensorMethod(FD, "cpu") || isTensorMethod(FD, "cuda") ||
      isTensorMethod(FD, "pin_memory"))
    return nullptr;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
  const Expr *Self = MC ? MC->getImplicitObjectArgument() : nullptr;
  if (const Expr *Returned = returnedOperand(Call))
    return tensorOrigin(Returned, Depth);
  const Decl *Common = nullptr;
  if (Self && isTensorType(Self->getType()) && !joinOrigin(Self, Depth, Common))
    return nullptr;
  for (const Expr *Arg : Call.arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (isDeviceOrOptionsType(Arg->getType()) &&
        (mentionsDevice(Arg) || optionsCarryDevice(Arg) || opaqueOptionsIn(Arg)))
      return deviceOrigin(Arg, Depth + 1);
    if (!joinOrigin(Arg, Depth, Common))
      return nullptr;
  }
  return Common;
}

// a in auto [a, b] = f(): element 0 of the tuple f returns.
static const Decl *bindingOrigin(const Expr *T, int Depth) {
  const auto *DRE = dyn_cast<DeclRefExpr>(T->IgnoreParenImpCasts());
  const auto *B = DRE ? dyn_cast<BindingDecl>(DRE->getDecl()) : nullptr;
  const auto *DD = B ? dyn_cast_or_null<DecompositionDecl>(B->getDecomposedDecl()) : nullptr;
  if (!DD || !DD->getInit() || !isUnchanged(*B))
    return nullptr;
  const auto *Call = dyn_cast<CallExpr>(DD->getInit()->IgnoreImplicit());
  auto Bindings = DD->bindings();
  auto At = llvm::find(Bindings, B);
  return Call ? returnedOrigin(*Call, Depth + 1, At - Bindings.begin()) : nullptr;
}

// The origin every value of a variable given new values agrees on
// (v = x.to(d) in a loop, std::tie(a, v) = f()).
static const Decl *assignedOrigin(const VarDecl &V, int Depth) {
  std::vector<HeldValue> Values;
  if (!allHeldValues(V, Values) || Values.empty())
    return nullptr;
  const Decl *Common = nullptr;
  for (const HeldValue &H : Values) {
    const auto *Call = dyn_cast<CallExpr>(H.E->IgnoreImplicit());
    const Decl *D = H.Element < 0 ? tensorOrigin(H.E, Depth + 1)
                    : Call        ? returnedOrigin(*Call, Depth + 1, H.Element)
                                  : nullptr;
    if (!D || (Common && D != Common))
      return nullptr;
    Common = D;
  }
  return Common;
}

// A forward of the code whose body names a device or moves a tensor to
// the host.
static bool forwardMovesResult(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || isTorchDecl(Def))
    return false;
  std::function<bool(const Stmt *)> Moves = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
        MC && (isTensorMethod(MC->getMethodDecl(), "cpu") || isTensorMethod(MC->getMethodDecl(), "cuda")))
      return true;
    return llvm::any_of(S->children(), Moves);
  };
  return mentionsDevice(Def->getBody()) || Moves(Def->getBody());
}

static const Decl *tensorOrigin(const Expr *T, int Depth) {
  if (!T || Depth > MaxDepth)
    return nullptr;
  T = ignoreTensorWrappers(T);
  if (const auto *To = asTensorMethodCall(T, "to")) {
    if (To->getNumArgs() == 0)
      return nullptr;
    const Expr *Dest = To->getArg(0);
    bool MovesDevice = isDeviceType(Dest->getType()) || isTensorType(Dest->getType()) ||
                       (isTensorOptionsType(Dest->getType()) && optionsCarryDevice(Dest));
    // Otherwise a dtype conversion: the tensor stays where it is.
    return MovesDevice ? deviceOrigin(Dest, Depth + 1)
                       : tensorOrigin(To->getImplicitObjectArgument(), Depth);
  }
  if (const CallExpr *Op = tupleOp(T))
    return operandsOrigin(*Op, Depth);
  if (const auto *Call = dyn_cast<CallExpr>(T)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!isTensorFactory(FD)) {
      // A module computes where its parameters are (an input elsewhere
      // would fail against them), unless its forward moves the result.
      const Expr *Dest = isModuleForwardCall(*Call) ? deviceModuleMovedTo(*Call) : nullptr;
      if (Dest && !forwardMovesResult(FD))
        return deviceOrigin(Dest, Depth + 1);
      if (const Decl *D = returnedOrigin(*Call, Depth))
        return D;
      return isModuleForwardCall(*Call) || (FD && isTorchDecl(FD)) ? operandsOrigin(*Call, Depth)
                                                                    : nullptr;
    }
    for (const Expr *Arg : Call->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg) && isDeviceOrOptionsType(Arg->getType()))
        if (const Decl *D = deviceOrigin(Arg, Depth + 1))
          return D;
    return nullptr;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(T))
    if (const Expr *Now = reachingValue(*DRE))
      return tensorOrigin(Now, Depth + 1);
  const VarDecl *V = namedVar(T);
  if (!V)
    return bindingOrigin(T, Depth);
  if (!isTensorType(V->getType()))
    return nullptr;
  if (auto D = forBoundVariable<const Decl *>(V, [&](const Expr *A) { return tensorOrigin(A, Depth + 1); }))
    return *D;
  if (!isUnchanged(*V))
    return assignedOrigin(*V, Depth);
  if (const Decl *D = tensorOrigin(isa<ParmVarDecl>(V) ? nullptr : V->getInit(), Depth + 1))
    return D;
  return V;
}

bool isProvablyOnDevice(const Expr *Tensor, const Expr *Dest) {
  const Decl *Where = deviceOrigin(Dest, 0);
  return Where && tensorOrigin(Tensor, 0) == Where;
}


} // namespace torchtidy
