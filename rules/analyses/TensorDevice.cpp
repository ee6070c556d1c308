#include "analyses/TensorDevice.h"

#include "analyses/TensorFactory.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace torchtidy {

// Variables, builder chains and returns are followed a few steps deep.
static constexpr int MaxDepth = 8;

static bool isDeviceOrOptions(QualType T) { return isDeviceType(T) || isTensorOptionsType(T); }

static const FunctionDecl *torchCallee(const CallExpr *Call, llvm::StringRef Name) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && FD->getName() == Name && isTorchDecl(FD) ? FD : nullptr;
}

const Expr *optionsDeviceArg(const Expr *E) {
  // Outermost first: the last .device() applied is the one that holds.
  for (E = E ? E->IgnoreUnlessSpelledInSource() : nullptr; E;) {
    const auto *Call = dyn_cast<CallExpr>(E);
    if (!Call || !isTensorOptionsType(Call->getType()))
      return nullptr;
    if (torchCallee(Call, "device"))
      return Call->getNumArgs() == 1 ? Call->getArg(0) : nullptr;
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    E = MC ? MC->getImplicitObjectArgument()->IgnoreUnlessSpelledInSource() : nullptr;
  }
  return nullptr;
}

// What a chain of TensorOptions setters that do not set the device starts
// from: opts in opts.dtype(torch::kFloat), x.options() in x.options().dtype(..).
static const Expr *optionsChainBase(const Expr *E) {
  E = innerDeviceExpr(E);
  while (const auto *MC = dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts())) {
    if (!isTensorOptionsType(MC->getType()) ||
        !isTensorOptionsType(MC->getImplicitObjectArgument()->getType()))
      break;
    E = innerDeviceExpr(MC->getImplicitObjectArgument());
  }
  return E;
}

static const VarDecl *namedVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

namespace {
// Finds a change of one variable after its initialisation: an assignment,
// ++/--, its address taken, a non-const method called on it, a non-const
// reference bound to it, or passing it to a non-const reference parameter
// of a function that is not LibTorch's (LibTorch's forwarding setters, such
// as TensorOptions::device(Args&&...), only read it). Lambda bodies are
// part of the search: a capture by reference changes nothing by itself.
class ChangeFinder : public RecursiveASTVisitor<ChangeFinder> {
public:
  // Assigned: where plain assignments (v = x) go instead of counting as
  // changes; null to count them.
  ChangeFinder(const VarDecl &V, std::vector<const Expr *> *Assigned = nullptr)
      : V(V), Assigned(Assigned) {}
  bool Found = false;

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (Assigned && B->getOpcode() == BO_Assign && names(B->getLHS()))
      Assigned->push_back(B->getRHS());
    else
      Found |= B->isAssignmentOp() && names(B->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    Found |= (U->getOpcode() == UO_AddrOf || U->isIncrementDecrementOp()) && names(U->getSubExpr());
    return !Found;
  }
  bool VisitVarDecl(VarDecl *D) {
    QualType T = D->getType();
    Found |= T->isReferenceType() && !T.getNonReferenceType().isConstQualified() && D->getInit() &&
             names(D->getInit());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *C) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C->getDirectCallee());
    // When values are collected, an in-place tensor method (index_put_)
    // writes data but leaves the variable holding the same tensor.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      Found |= MD && !MD->isConst() && !(Assigned && isTensorMethod(MD, MD->getName())) &&
               names(MC->getImplicitObjectArgument());
    unsigned Shift = 0;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
        Assigned && Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        names(Op->getArg(0))) {
      Assigned->push_back(Op->getArg(1));
      return true;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C); Op && MD) {
      Found |= !MD->isConst() && Op->getNumArgs() > 0 && names(Op->getArg(0));
      Shift = 1;  // the object comes first
    }
    if (!Found)
      checkArgs(C->getDirectCallee(), {C->getArgs(), C->getNumArgs()}, Shift);
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    checkArgs(C->getConstructor(), {C->getArgs(), C->getNumArgs()}, 0);
    return !Found;
  }

private:
  bool names(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == &V;
  }
  void checkArgs(const FunctionDecl *FD, llvm::ArrayRef<Expr *> Args, unsigned Shift) {
    if (!FD || isTorchDecl(FD))
      return;
    unsigned I = 0;
    for (const Expr *Arg : Args) {
      if (I >= Shift && I - Shift < FD->getNumParams()) {
        QualType P = FD->getParamDecl(I - Shift)->getType();
        Found |= P->isReferenceType() && !P.getNonReferenceType().isConstQualified() && names(Arg);
      }
      ++I;
    }
  }
  const VarDecl &V;
  std::vector<const Expr *> *Assigned;
};
} // namespace

// A const variable, or a local or parameter that its function never
// changes: what it holds is what it was initialised with.
static bool isUnchanged(const VarDecl &V) {
  if (V.getType().getNonReferenceType().isConstQualified())
    return true;
  if (!V.isLocalVarDeclOrParm())
    return false;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return false;
  ChangeFinder F(V);
  F.TraverseStmt(FD->getBody());
  return !F.Found;
}

bool allValuesOf(const VarDecl &V, std::vector<const Expr *> &Out) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
  if (isa<ParmVarDecl>(V) || !V.isLocalVarDecl() || !FD || !FD->getBody())
    return false;
  ChangeFinder F(V, &Out);
  F.TraverseStmt(FD->getBody());
  if (F.Found)
    return false;
  // A default-constructed tensor is undefined: it holds no data anywhere.
  const auto *Default = dyn_cast_or_null<CXXConstructExpr>(V.getInit());
  if (V.getInit() && !(Default && Default->getNumArgs() == 0))
    Out.push_back(V.getInit());
  return true;
}

const Expr *lastingInit(const VarDecl *V) {
  return V && !isa<ParmVarDecl>(V) && V->getInit() && isUnchanged(*V) ? V->getInit() : nullptr;
}

static DeviceKind knownKind(const Expr *E, int Depth) {
  if (!E || Depth > MaxDepth)
    return DeviceKind::Unknown;
  DeviceKind K = literalDeviceKind(E);
  if (K != DeviceKind::Unknown)
    return K;
  if (const Expr *Arg = optionsDeviceArg(E))
    return knownKind(Arg, Depth + 1);
  const VarDecl *V = namedVar(optionsChainBase(E));
  return V && isDeviceOrOptions(V->getType()) ? knownKind(lastingInit(V), Depth + 1)
                                               : DeviceKind::Unknown;
}

DeviceKind knownDeviceKind(const Expr *E) { return knownKind(E, 0); }

static bool carriesDevice(const Expr *E, int Depth) {
  if (!E || Depth > MaxDepth)
    return false;
  if (mentionsDevice(E))
    return true;
  const VarDecl *V = namedVar(optionsChainBase(E));
  return V && !isa<ParmVarDecl>(V) && isTensorOptionsType(V->getType()) &&
         carriesDevice(V->getInit(), Depth + 1);
}

bool optionsCarryDevice(const Expr *E) { return carriesDevice(E, 0); }

// Where a device or a tensor comes from, as the declaration that settles
// it: a Device or TensorOptions variable, a field of the object, or a
// tensor variable whose device it is. Null when unknown (literals too:
// kCUDA and cuda:1 may differ).
static const Decl *deviceOrigin(const Expr *E, int Depth);
static const Decl *tensorOrigin(const Expr *T, int Depth);

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
  if (const auto *ME = dyn_cast<MemberExpr>(Base->IgnoreParenImpCasts()))
    return isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) &&
                   isDeviceOrOptions(ME->getType())
               ? ME->getMemberDecl()
               : nullptr;
  const VarDecl *V = namedVar(Base);
  if (!V || !isDeviceOrOptions(V->getType()))
    return nullptr;
  // A device variable reassigned at its selection site is still one device.
  if (const Decl *D = deviceOrigin(lastingInit(V), Depth + 1))
    return D;
  return V;
}

void collectReturns(const Stmt *S, std::vector<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    Out.push_back(R);
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}

// An origin found in the callee Def, as the caller of Call sees it: a
// parameter becomes the argument's origin, a field stays one only for a
// call on the same object, and the callee's locals mean nothing outside.
static const Decl *originAtCaller(const Decl *D, const CallExpr &Call, const FunctionDecl &Def,
                                  int Depth) {
  if (!D)
    return nullptr;
  if (isa<FieldDecl>(D)) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
    return MC && isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts()) ? D
                                                                                            : nullptr;
  }
  if (D->getDeclContext() != static_cast<const DeclContext *>(&Def))
    return D;  // a global, or a variable a lambda captured
  const auto *P = dyn_cast<ParmVarDecl>(D);
  if (!P)
    return nullptr;
  // A lambda's or functor's operator() call lists the object first.
  unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Def) ? 1 : 0;
  unsigned I = P->getFunctionScopeIndex() + Shift;
  return I < Call.getNumArgs() ? deviceOrigin(Call.getArg(I), Depth + 1) : nullptr;
}

// The origin every return of a function of the code agrees on.
static const Decl *returnedOrigin(const CallExpr &Call, int Depth) {
  const FunctionDecl *FD = Call.getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def || isTorchDecl(Def))
    return nullptr;
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Def->getBody(), Returns);
  const Decl *Common = nullptr;
  for (const ReturnStmt *R : Returns) {
    const Decl *D = originAtCaller(tensorOrigin(R->getRetValue(), Depth + 1), Call, *Def, Depth);
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
  const Decl *D = tensorOrigin(E, Depth + 1);
  if (D && Common && D != Common)
    return false;
  Common = D ? D : Common;
  return true;
}

// LibTorch computes where its tensor operands are (mixing devices is an
// error, but for CPU scalars): an op, a *_like factory or a module's
// forward gives a tensor of the origin its known operands agree on. An
// in-place op (x.copy_(y)) stays where x is; an explicit device wins.
static const Decl *operandsOrigin(const CallExpr &Call, int Depth) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || isTensorMethod(FD, "cpu") || isTensorMethod(FD, "cuda") ||
      isTensorMethod(FD, "pin_memory"))
    return nullptr;
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
  const Expr *Self = MC ? MC->getImplicitObjectArgument() : nullptr;
  if (Self && isTensorType(Self->getType()) && FD->getIdentifier() && FD->getName().ends_with("_"))
    return tensorOrigin(Self, Depth + 1);
  const Decl *Common = nullptr;
  if (Self && isTensorType(Self->getType()) && !joinOrigin(Self, Depth, Common))
    return nullptr;
  for (const Expr *Arg : Call.arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (isDeviceOrOptions(Arg->getType()) &&
        (mentionsDevice(Arg) || optionsCarryDevice(Arg) || opaqueOptionsIn(Arg)))
      return deviceOrigin(Arg, Depth + 1);
    if (!joinOrigin(Arg, Depth, Common))
      return nullptr;
  }
  return Common;
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
                       : tensorOrigin(To->getImplicitObjectArgument(), Depth + 1);
  }
  if (const auto *Call = dyn_cast<CallExpr>(T)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!isTensorFactory(FD)) {
      if (const Decl *D = returnedOrigin(*Call, Depth))
        return D;
      return isModuleForwardCall(*Call) || (FD && isTorchDecl(FD)) ? operandsOrigin(*Call, Depth)
                                                                    : nullptr;
    }
    for (const Expr *Arg : Call->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg) && isDeviceOrOptions(Arg->getType()))
        if (const Decl *D = deviceOrigin(Arg, Depth + 1))
          return D;
    return nullptr;
  }
  const VarDecl *V = namedVar(T);
  if (!V || !isTensorType(V->getType()) || !isUnchanged(*V))
    return nullptr;
  if (const Decl *D = tensorOrigin(isa<ParmVarDecl>(V) ? nullptr : V->getInit(), Depth + 1))
    return D;
  return V;
}

bool isProvablyOnDevice(const Expr *Tensor, const Expr *Dest) {
  const Decl *Where = deviceOrigin(Dest, 0);
  return Where && tensorOrigin(Tensor, 0) == Where;
}

} // namespace torchtidy
