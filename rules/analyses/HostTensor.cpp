#include "analyses/HostTensor.h"

#include "analyses/DeviceExpr.h"
#include "analyses/HostFlow.h"
#include "analyses/TensorDevice.h"
#include "analyses/TensorFactory.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace torchtidy {

using namespace host;

bool isCopyToHost(const Expr *E) {
  if (asTensorMethodCall(E, "cpu"))
    return true;
  const auto *To = asTensorMethodCall(E, "to");
  return To && To->getNumArgs() > 0 && knownDeviceKind(To->getArg(0)) == DeviceKind::Cpu;
}

const Expr *viewBase(const Expr *E) {
  static const llvm::StringRef ViewMethods[] = {"select", "index", "narrow", "slice", "view"};
  for (;;) {
    E = ignoreTensorWrappers(E);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
      if (Op->getOperator() == OO_Subscript && isTorchDecl(Op->getDirectCallee())) {
        E = Op->getArg(0);
        continue;
      }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
    if (!MD || !MD->getIdentifier() || !llvm::is_contained(ViewMethods, MD->getName()) ||
        !isTensorMethod(MD, MD->getName()))
      return E;
    E = MC->getImplicitObjectArgument();
  }
}

bool host::holdsTensors(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec)
    return false;
  auto Holds = [](const TemplateArgument &A) {
    return A.getKind() == TemplateArgument::Type &&
           (isTensorType(A.getAsType()) || holdsTensors(A.getAsType()));
  };
  for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
    if (A.getKind() == TemplateArgument::Pack ? llvm::any_of(A.pack_elements(), Holds) : Holds(A))
      return true;
  return false;
}

// Every value of the variable satisfies Pred: a local's initialiser and
// assignments, or a constant's initialiser.
template <typename P> static bool allValues(const VarDecl *V, P Pred) {
  std::vector<const Expr *> Values;
  if (!V || !allValuesOf(*V, Values)) {
    Values.clear();
    if (const Expr *Init = lastingInit(V))
      Values.push_back(Init);
  }
  return !Values.empty() && llvm::all_of(Values, Pred);
}

static const VarDecl *namedVar(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

// The tensors in an operand (a tensor, or the elements of a braced list, as
// torch::cat({a, b}) takes them, or a container's) all live on the host; Any
// is set when there is one.
static bool tensorsOnHost(const Stmt *S, int Depth, Opened &Open, bool &Any) {
  const auto *E = dyn_cast<Expr>(S);
  if (E && isTensorType(E->getType())) {
    Any = true;
    return onHost(E, Depth + 1, Open);
  }
  if (E && holdsTensors(E->getType()) && isa<DeclRefExpr, MemberExpr, CallExpr>(E)) {
    Any = true;
    return containerOnHost(E, Depth + 1, Open);
  }
  return llvm::all_of(S->children(), [&](const Stmt *C) { return tensorsOnHost(C, Depth, Open, Any); });
}

// A factory given the CPU, or nothing that could name another device.
static bool madeOnHost(const CallExpr &Call) {
  auto NamesCpu = [](const Expr *A) { return knownDeviceKind(A) == DeviceKind::Cpu; };
  if (llvm::any_of(Call.arguments(), NamesCpu))
    return true;
  return !callNamesDevice(Call) && !opaqueOptionsArg(Call) &&
         llvm::none_of(Call.arguments(), [](const Expr *A) {
           return isTensorOptionsType(A->getType()) && optionsCarryDevice(A);
         });
}

// A LibTorch op of tensors (a method of at::Tensor, an operator, a free
// function) whose tensor operands all live on the host and whose other
// arguments name no device but the CPU.
static bool opKeepsHost(const CallExpr &Call, int Depth, Opened &Open) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Call.getDirectCallee());
  if (!isTensorType(Call.getType()) ||
      (MD && (!isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0)) ||
              isTensorMethod(MD, "cuda"))))
    return false;
  bool Any = false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call))
    if (!tensorsOnHost(MC->getImplicitObjectArgument(), Depth, Open, Any))
      return false;
  for (const Expr *Arg : Call.arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (!isTensorType(Arg->getType()) && (mentionsDevice(Arg) || opaqueOptionsIn(Arg)) &&
        knownDeviceKind(Arg) != DeviceKind::Cpu)
      return false;
    if (!tensorsOnHost(Arg, Depth, Open, Any))
      return false;
  }
  return Any;
}

bool host::returnsHost(const CallExpr &Call, int Depth, Opened &Open) {
  const FunctionDecl *FD = Call.getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || isTorchDecl(FD) || FD->isInStdNamespace())
    return false;
  if (!FD->hasBody(Def) || !Def)
    return returnsHostElsewhere(*FD);
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Def->getBody(), Returns);
  return !Returns.empty() && llvm::all_of(Returns, [&](const ReturnStmt *R) {
    return holdsTensors(Def->getReturnType()) ? containerOnHost(R->getRetValue(), Depth + 1, Open)
                                               : onHost(R->getRetValue(), Depth + 1, Open);
  });
}

// A range-for's element: the range it runs over, else null.
static const Expr *rangeOf(const VarDecl &V) {
  if (!V.isCXXForRangeDecl())
    return nullptr;
  for (const DynTypedNode &P : V.getASTContext().getParents(V))
    if (const auto *DS = P.get<DeclStmt>())
      for (const DynTypedNode &G : V.getASTContext().getParents(*DS))
        if (const auto *For = G.get<CXXForRangeStmt>())
          return For->getRangeInit();
  return nullptr;
}

bool host::onHost(const Expr *E, int Depth, Opened &Open) {
  if (!E || Depth > MaxDepth)
    return false;
  E = ignoreTensorWrappers(E);
  if (isCopyToHost(E))
    return true;
  if (const Expr *C = elementContainer(E))
    return containerOnHost(C, Depth + 1, Open);
  if (const auto *P = dyn_cast_or_null<ParmVarDecl>(namedVar(E)))
    return isTensorType(P->getType()) && paramOnHost(*P, Depth + 1, Open);
  if (const VarDecl *V = namedVar(E); V && V->isCXXForRangeDecl()) {
    const Expr *Range = rangeOf(*V);
    return Range && isTensorType(V->getType()) && isUnchanged(*V) &&
           containerOnHost(Range, Depth + 1, Open);
  }
  if (const VarDecl *V = namedVar(E)) {
    // Inside its own values (acc = torch::cat({acc, x.cpu()})) the variable
    // holds what its other values put there.
    if (Open.count(V))
      return true;
    Open.insert(V);
    bool Host = isTensorType(V->getType()) &&
                allValues(V, [&](const Expr *Val) { return onHost(Val, Depth + 1, Open); });
    Open.erase(V);
    return Host;
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return false;
  if (isTensorFactory(FD))
    return madeOnHost(*Call);
  if (isTorchDecl(FD))
    return opKeepsHost(*Call, Depth, Open);
  return returnsHost(*Call, Depth, Open);
}

bool isProvablyOnCpu(const Expr *Tensor) {
  Opened Open;
  return onHost(Tensor, 0, Open);
}

static bool placed(const Expr *E, int Depth) {
  if (!E || Depth > MaxDepth)
    return false;
  E = viewBase(E);
  if (asTensorMethodCall(E, "cuda"))
    return true;
  if (const auto *To = asTensorMethodCall(E, "to")) {
    const Expr *Dest = To->getNumArgs() > 0 ? To->getArg(0) : nullptr;
    if (!Dest || isTensorType(Dest->getType()))
      return placed(Dest, Depth + 1);
    if (isDeviceType(Dest->getType()) || optionsCarryDevice(Dest))
      return knownDeviceKind(Dest) != DeviceKind::Cpu;
    return placed(To->getImplicitObjectArgument(), Depth + 1);  // a dtype change
  }
  if (const VarDecl *V = namedVar(E))
    return isTensorType(V->getType()) &&
           allValues(V, [&](const Expr *Val) { return placed(Val, Depth + 1); });
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call || !isTensorFactory(Call->getDirectCallee()) || madeOnHost(*Call))
    return false;
  return true;
}

bool isPlacedOnDevice(const Expr *Tensor) { return placed(Tensor, 0); }

} // namespace torchtidy
