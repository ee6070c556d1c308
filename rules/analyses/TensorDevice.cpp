#include "analyses/TensorDevice.h"

#include "analyses/CallFrames.h"
#include "analyses/ReachingValue.h"
#include "analyses/TensorFactory.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace torchtidy {

// Variables and builder chains are followed a few steps deep.
static constexpr int MaxDepth = 16;

bool isDeviceOrOptionsType(QualType T) { return isDeviceType(T) || isTensorOptionsType(T); }

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
const Expr *optionsChainBase(const Expr *E) {
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

static DeviceKind knownKind(const Expr *E, int Depth) {
  if (!E || Depth > MaxDepth)
    return DeviceKind::Unknown;
  DeviceKind K = literalDeviceKind(E);
  if (K != DeviceKind::Unknown)
    return K;
  if (const Expr *Arg = optionsDeviceArg(E))
    return knownKind(Arg, Depth + 1);
  const Expr *Base = optionsChainBase(E);
  // The one value every path gives the variable here: a device chosen in a
  // branch, then set to the CPU whatever the branch chose.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts()))
    if (const Expr *Now = reachingValue(*DRE))
      if (DeviceKind K = knownKind(Now, Depth + 1); K != DeviceKind::Unknown)
        return K;
  const VarDecl *V = namedVar(Base);
  if (!V || !(isDeviceOrOptionsType(V->getType()) || isDeviceTypeEnum(V->getType())))
    return DeviceKind::Unknown;
  if (auto K = forBoundVariable<DeviceKind>(V, [&](const Expr *A) { return knownKind(A, Depth + 1); }))
    return *K;
  return knownKind(lastingInit(V), Depth + 1);
}

DeviceKind knownDeviceKind(const Expr *E) { return knownKind(E, 0); }

static bool carriesDevice(const Expr *E, int Depth) {
  if (!E || Depth > MaxDepth)
    return false;
  if (mentionsDevice(E))
    return true;
  const VarDecl *V = namedVar(optionsChainBase(E));
  if (!V || !isTensorOptionsType(V->getType()))
    return false;
  if (auto C = forBoundVariable<bool>(V, [&](const Expr *A) { return carriesDevice(A, Depth + 1); }))
    return *C;
  return !isa<ParmVarDecl>(V) && carriesDevice(V->getInit(), Depth + 1);
}

bool optionsCarryDevice(const Expr *E) { return carriesDevice(E, 0); }

const Expr *deviceSourceTensor(const Expr *E) {
  for (int Depth = 0; E && isDeviceOrOptionsType(E->getType()) && Depth <= MaxDepth; ++Depth) {
    if (const Expr *Arg = optionsDeviceArg(E)) {
      E = Arg;
      continue;
    }
    const Expr *Base = optionsChainBase(E);
    const CXXMemberCallExpr *Of = asTensorMethodCall(Base, "options");
    if (!Of)
      Of = asTensorMethodCall(Base, "device");
    if (Of)
      return Of->getImplicitObjectArgument();
    const VarDecl *V = namedVar(Base);
    if (!V || isa<ParmVarDecl>(V) || !isDeviceOrOptionsType(V->getType()) || !isUnchanged(*V))
      return nullptr;
    E = V->getInit();
  }
  return nullptr;
}

const CallExpr *tupleOp(const Expr *E) {
  const Expr *Tuple = nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && Call->getNumArgs() == 1) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (FD && FD->isInStdNamespace() && FD->getIdentifier() && FD->getName() == "get")
      Tuple = Call->getArg(0)->IgnoreParenImpCasts();
  } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *B = dyn_cast<BindingDecl>(DRE->getDecl()))
      if (const auto *DD = dyn_cast_or_null<DecompositionDecl>(B->getDecomposedDecl()))
        Tuple = DD->getInit();
  }
  if (const VarDecl *V = Tuple ? namedVar(Tuple) : nullptr)
    Tuple = isUnchanged(*V) ? V->getInit() : nullptr;
  const auto *Op = Tuple ? dyn_cast<CallExpr>(Tuple->IgnoreImplicit()) : nullptr;
  return Op && Op->getDirectCallee() && isTorchDecl(Op->getDirectCallee()) ? Op : nullptr;
}


void collectReturns(const Stmt *S, std::vector<const ReturnStmt *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    Out.push_back(R);
  for (const Stmt *Child : S->children())
    collectReturns(Child, Out);
}

const Expr *tupleElement(const Expr *E, unsigned I) {
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    return tupleElement(Cast->getSubExpr(), I);
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return I < List->getNumInits() ? List->getInit(I) : nullptr;
  if (const auto *Make = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Make->getDirectCallee();
    bool Maker = FD && FD->isInStdNamespace() && FD->getIdentifier() &&
                 (FD->getName() == "make_tuple" || FD->getName() == "make_pair");
    return Maker && I < Make->getNumArgs() ? Make->getArg(I) : nullptr;
  }
  const auto *Ctor = dyn_cast<CXXConstructExpr>(E);
  const CXXRecordDecl *Class = Ctor ? Ctor->getType()->getAsCXXRecordDecl() : nullptr;
  if (!Class || !Class->isInStdNamespace() || !Class->getIdentifier() ||
      (Class->getName() != "tuple" && Class->getName() != "pair"))
    return nullptr;
  if (Ctor->getNumArgs() == 1 && Ctor->getArg(0)->getType()->getAsCXXRecordDecl() == Class)
    return tupleElement(Ctor->getArg(0), I);  // a copy or move of a tuple made in place
  return I < Ctor->getNumArgs() ? Ctor->getArg(I) : nullptr;
}

} // namespace torchtidy
