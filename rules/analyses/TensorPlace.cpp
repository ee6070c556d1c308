#include "analyses/TensorPlace.h"

#include "analyses/CallFrames.h"
#include "analyses/DeviceExpr.h"
#include "analyses/LocalModule.h"
#include "analyses/PlaceFlow.h"
#include "analyses/ReachingValue.h"
#include "analyses/TensorDevice.h"
#include "analyses/TensorFactory.h"
#include "analyses/TorchTypes.h"
#include "analyses/UnresolvedCall.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

using namespace clang;

namespace torchtidy {

using namespace place;

bool isCopyToHost(const Expr *E) {
  if (asTensorMethodCall(E, "cpu"))
    return true;
  const auto *To = asTensorMethodCall(E, "to");
  return To && To->getNumArgs() > 0 && knownDeviceKind(To->getArg(0)) == DeviceKind::Cpu;
}

bool isViewMethod(llvm::StringRef Name) {
  static const llvm::StringRef ViewMethods[] = {"select", "index", "narrow", "slice", "view"};
  return llvm::is_contained(ViewMethods, Name);
}

const Expr *viewBase(const Expr *E) {
  for (;;) {
    E = ignoreTensorWrappers(E);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
      if (Op->getOperator() == OO_Subscript && isTorchDecl(Op->getDirectCallee())) {
        E = Op->getArg(0);
        continue;
      }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
    if (!MD || !MD->getIdentifier() || !isViewMethod(MD->getName()) ||
        !isTensorMethod(MD, MD->getName()))
      return E;
    E = MC->getImplicitObjectArgument();
  }
}

bool place::holdsTensors(QualType T) {
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
// torch::cat({a, b}) takes them, or a container's) all live at Q.Where;
// Any is set when there is one.
static bool tensorsThere(const Stmt *S, int Depth, Question &Q, bool &Any) {
  const auto *E = dyn_cast<Expr>(S);
  if (E && isTensorType(E->getType())) {
    Any = true;
    return lives(E, Depth + 1, Q);
  }
  if (E && holdsTensors(E->getType()) && isa<DeclRefExpr, MemberExpr, CallExpr>(E)) {
    Any = true;
    return containerLives(E, Depth + 1, Q);
  }
  return llvm::all_of(S->children(), [&](const Stmt *C) { return tensorsThere(C, Depth, Q, Any); });
}

// One tensor in an operand (as tensorsThere finds them) lives at Q.Where.
static bool someTensorThere(const Stmt *S, int Depth, Question &Q) {
  const auto *E = dyn_cast<Expr>(S);
  if (E && isTensorType(E->getType()))
    return lives(E, Depth + 1, Q);
  if (E && holdsTensors(E->getType()) && isa<DeclRefExpr, MemberExpr, CallExpr>(E))
    return containerLives(E, Depth + 1, Q);
  return llvm::any_of(S->children(), [&](const Stmt *C) { return someTensorThere(C, Depth, Q); });
}

// LibTorch's ops need their tensors on one device (a CPU scalar aside), so
// one operand on a device puts the result there, but for an op that returns
// one of its operands.
static bool someOperandOnDevice(const CallExpr &Call, int Depth, Question &Q) {
  if (const Expr *Returned = returnedOperand(Call))
    return someTensorThere(Returned, Depth, Q);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call))
    if (someTensorThere(MC->getImplicitObjectArgument(), Depth, Q))
      return true;
  return llvm::any_of(Call.arguments(), [&](const Expr *A) {
    return !isa<CXXDefaultArgExpr>(A) && someTensorThere(A, Depth, Q);
  });
}

// Options the code shows whole: a local never changed whose initialiser
// names no device and no options it does not show
// (auto opts = torch::TensorOptions().dtype(torch::kInt32)).
static bool shownOptions(const Expr *Options) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Options);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return V && V->isLocalVarDecl() && V->getInit() && isUnchanged(*V) &&
         !mentionsDevice(V->getInit()) && !opaqueOptionsIn(V->getInit());
}

// A factory given the CPU, or nothing that could name another device.
static bool madeOnHost(const CallExpr &Call) {
  auto NamesCpu = [](const Expr *A) { return knownDeviceKind(A) == DeviceKind::Cpu; };
  if (llvm::any_of(Call.arguments(), NamesCpu))
    return true;
  const Expr *Opaque = opaqueOptionsArg(Call);
  return !callNamesDevice(Call) && (!Opaque || shownOptions(Opaque)) &&
         llvm::none_of(Call.arguments(), [](const Expr *A) {
           return isTensorOptionsType(A->getType()) && optionsCarryDevice(A);
         });
}

// A LibTorch op of tensors (a method of at::Tensor, an operator, a free
// function) whose tensor operands all live on the host and whose other
// arguments name no other place; or, for a device, one whose arguments name
// a device not known to be the CPU or that has an operand there.
static bool opKeeps(const CallExpr &Call, int Depth, Question &Q) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Call.getDirectCallee());
  if (!(isTensorType(Call.getType()) || holdsTensors(Call.getType())) ||
      (MD && (!isTensorType(QualType(MD->getParent()->getTypeForDecl(), 0)) ||
              isTensorMethod(MD, "cuda"))))
    return false;
  bool Any = false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call); MC && Q.Where == Place::Host)
    if (!tensorsThere(MC->getImplicitObjectArgument(), Depth, Q, Any))
      return false;
  for (const Expr *Arg : Call.arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    // A list of tensors (torch::cat({x, torch::zeros({1}, x.options())})) is
    // judged by its tensors, below, not by the devices they name.
    if (!isTensorType(Arg->getType()) && !holdsTensors(Arg->getType()) &&
        (mentionsDevice(Arg) || opaqueOptionsIn(Arg))) {
      bool Cpu = knownDeviceKind(Arg) == DeviceKind::Cpu;
      if (!Cpu || Q.Where == Place::Device)
        return !Cpu && Q.Where == Place::Device;
    }
    if (Q.Where == Place::Host && !tensorsThere(Arg, Depth, Q, Any))
      return false;
  }
  return Q.Where == Place::Device ? someOperandOnDevice(Call, Depth, Q) : Any;
}

// A module's forward of tensors put on a device gives its result there (its
// parameters must be there too, or the call fails). Host operands prove
// nothing on their own: in a program that uses CUDA they more often mean a
// move whose result was dropped (x.to(device); on its own) than a module on
// the host; they do for a module provably kept on the host.
static bool forwardKeeps(const CallExpr &Call, int Depth, Question &Q) {
  if (Q.Where == Place::Host && forwardOfModuleMovedToCpu(Call))
    return true;
  if (Q.Where == Place::Host && !forwardOfHostModule(Call))
    return false;
  bool Any = false;
  return llvm::all_of(Call.arguments(),
                      [&](const Expr *A) { return tensorsThere(A, Depth, Q, Any); }) &&
         Any;
}

bool place::bindingLives(const BindingDecl &B, int Depth, Question &Q) {
  const auto *DD = dyn_cast_or_null<DecompositionDecl>(B.getDecomposedDecl());
  const auto *Call = DD && DD->getInit() && !DD->getType()->isReferenceType()
                         ? dyn_cast<CallExpr>(DD->getInit()->IgnoreImplicit())
                         : nullptr;
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD || isTorchDecl(FD) || FD->isInStdNamespace() || !FD->hasBody(Def) || !Def)
    return false;
  auto Bindings = DD->bindings();
  unsigned I = llvm::find(Bindings, &B) - Bindings.begin();
  return everyReturn(*Def, [&](const Expr *V) {
    const Expr *El = tupleElement(V, I);
    return El && valueLives(El, B.getType(), Depth + 1, Q);
  });
}

bool place::valueLives(const Expr *E, QualType T, int Depth, Question &Q) {
  return E && (isTensorType(T) ? lives(E, Depth, Q) : containerLives(E, Depth, Q));
}

bool place::everyReturn(const FunctionDecl &Def, llvm::function_ref<bool(const Expr *)> Pred) {
  std::vector<const ReturnStmt *> Returns;
  collectReturns(Def.getBody(), Returns);
  return !Returns.empty() && llvm::all_of(Returns, [&](const ReturnStmt *R) {
    return R->getRetValue() && Pred(R->getRetValue());
  });
}

bool place::returnsThere(const CallExpr &Call, int Depth, Question &Q, const FieldDecl *Member) {
  const FunctionDecl *FD = calleeOf(Call);
  return FD && functionReturnsThere(*FD, Depth, Q, Member, &Call);
}

bool place::functionReturnsThere(const FunctionDecl &FD, int Depth, Question &Q,
                                 const FieldDecl *Member, const CallExpr *Call) {
  const FunctionDecl *Def = nullptr;
  if (isTorchDecl(&FD) || FD.isInStdNamespace())
    return false;
  if (!FD.hasBody(Def) || !Def)
    return returnsThereElsewhere(FD, Q.Where, Member);
  std::optional<CallFrame> Frame;
  if (Call)
    Frame.emplace(*Call, *Def);
  return everyReturn(*Def, [&](const Expr *V) {
    return Member ? memberLives(V, *Member, Depth + 1, Q)
                  : valueLives(V, Def->getReturnType(), Depth + 1, Q);
  });
}

const Expr *place::rangeOf(const VarDecl &V) {
  if (!V.isCXXForRangeDecl())
    return nullptr;
  for (const DynTypedNode &P : V.getASTContext().getParents(V))
    if (const auto *DS = P.get<DeclStmt>())
      for (const DynTypedNode &G : V.getASTContext().getParents(*DS))
        if (const auto *For = G.get<CXXForRangeStmt>())
          return For->getRangeInit();
  return nullptr;
}

// The field a member expression names (this->grid, grid, other.grid).
static const FieldDecl *fieldOf(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E);
  return ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
}

// The record value a member is read from (sample.img, load(i).data); null
// for a member of an object reached through a pointer or this.
static const Expr *recordOf(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E);
  return ME && !ME->isArrow() && !isa<CXXThisExpr>(ME->getBase()->IgnoreImplicit())
             ? ME->getBase()
             : nullptr;
}

// Every value of a private field lives at Q.Where (inside its own values,
// grid = grid.to(d), it holds what the others put there).
static bool fieldLives(const FieldDecl &F, int Depth, Question &Q) {
  return remembered(F, Q, [&] {
    std::vector<const Expr *> Values;
    return fieldValues(F, Values) &&
           llvm::all_of(Values, [&](const Expr *V) { return lives(V, Depth + 1, Q); });
  });
}

// Where a copy or factory puts its tensor, when it says: true or false for
// Q.Where, or nothing when the expression is neither.
static std::optional<bool> madeThere(const Expr *E, int Depth, Question &Q) {
  if (std::optional<bool> Broken = brokenMadeThere(E, Depth, Q))
    return Broken;
  if (isCopyToHost(E))
    return Q.Where == Place::Host;
  if (asTensorMethodCall(E, "cuda"))
    return Q.Where == Place::Device;
  if (const auto *To = asTensorMethodCall(E, "to"); To && To->getNumArgs() > 0) {
    const Expr *Dest = To->getArg(0);
    if (isTensorType(Dest->getType()))
      return lives(Dest, Depth + 1, Q);
    if (const Expr *From = deviceSourceTensor(Dest))
      return lives(From, Depth + 1, Q);
    if (isDeviceType(Dest->getType()) || optionsCarryDevice(Dest))
      return Q.Where == Place::Device;  // a device not known to be the CPU
    return std::nullopt;                // a dtype change: an op of the tensor
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call || !isTensorFactory(Call->getDirectCallee()))
    return std::nullopt;
  for (const Expr *Arg : Call->arguments())
    if (const Expr *From = deviceSourceTensor(Arg))
      return lives(From, Depth + 1, Q);  // made with other.options()
  return madeOnHost(*Call) == (Q.Where == Place::Host);
}

bool place::lives(const Expr *E, int Depth, Question &Q) {
  if (!E || tooDeep(Depth, Q))
    return false;
  E = ignoreTensorWrappers(E);
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
    return lives(Cond->getTrueExpr(), Depth + 1, Q) && lives(Cond->getFalseExpr(), Depth + 1, Q);
  if (std::optional<bool> Made = madeThere(E, Depth, Q))
    return *Made;
  if (const Expr *C = elementContainer(E))
    return containerLives(C, Depth + 1, Q);
  if (const CallExpr *Op = tupleOp(E))
    return opKeeps(*Op, Depth + 1, Q);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const Expr *Now = reachingValue(*DRE))
      return lives(Now, Depth + 1, Q);
    if (const auto *B = dyn_cast<BindingDecl>(DRE->getDecl()))
      return isTensorType(B->getType()) && isUnchanged(*B) && bindingLives(*B, Depth, Q);
  }
  if (const FieldDecl *F = fieldOf(E))
    return isTensorType(F->getType()) &&
           (fieldLives(*F, Depth, Q) || memberLives(recordOf(E), *F, Depth, Q));
  if (const auto *P = dyn_cast_or_null<ParmVarDecl>(namedVar(E))) {
    if (!isTensorType(P->getType()))
      return false;
    if (std::optional<bool> Bound =
            forBoundVariable<bool>(P, [&](const Expr *Arg) { return lives(Arg, Depth + 1, Q); }))
      return *Bound;
    return paramLives(*P, Depth + 1, Q);
  }
  if (const VarDecl *V = namedVar(E); V && V->isCXXForRangeDecl()) {
    const Expr *Range = rangeOf(*V);
    return Range && isTensorType(V->getType()) && isUnchanged(*V) &&
           containerLives(Range, Depth + 1, Q);
  }
  if (const VarDecl *V = namedVar(E)) {
    // Inside its own values (acc = torch::cat({acc, x.cpu()})) the variable
    // holds what its other values put there.
    if (Q.Open.count(V))
      return true;
    Q.Open.insert(V);
    bool There = isTensorType(V->getType()) &&
                 allValues(V, [&](const Expr *Val) { return lives(Val, Depth + 1, Q); });
    Q.Open.erase(V);
    return There;
  }
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call)
    return false;
  if (!Call->getDirectCallee())
    return returnsThere(*Call, Depth, Q);
  if (isModuleForwardCall(*Call))
    return forwardKeeps(*Call, Depth, Q);
  if (isTorchDecl(Call->getDirectCallee()))
    return opKeeps(*Call, Depth, Q);
  return returnsThere(*Call, Depth, Q);
}

bool isProvablyOnCpu(const Expr *Tensor) {
  Question Q{Place::Host, {}};
  return lives(Tensor, 0, Q);
}

bool isPlacedOnDevice(const Expr *Tensor) {
  Question Q{Place::Device, {}};
  return lives(Tensor, 0, Q);
}

} // namespace torchtidy
