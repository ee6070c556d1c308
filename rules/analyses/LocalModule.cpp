#include "analyses/LocalModule.h"

#include "analyses/DeviceExpr.h"
#include "analyses/ReachingValue.h"
#include "analyses/TensorDevice.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace torchtidy {

// The variable the module object of a forward call names: net in net(x),
// net->forward(x), net.forward(x).
static const VarDecl *moduleVar(const CallExpr &Call) {
  const Expr *Obj = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call))
    Obj = Op->getArg(0);
  else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call))
    Obj = MC->getImplicitObjectArgument();
  while (Obj) {
    Obj = Obj->IgnoreParenImpCasts();
    if (const auto *Arrow = dyn_cast<CXXOperatorCallExpr>(Obj);
        Arrow && Arrow->getOperator() == OO_Arrow)
      Obj = Arrow->getArg(0);
    else
      break;
  }
  const auto *DRE = Obj ? dyn_cast<DeclRefExpr>(Obj) : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

// Made here: a constructor of the module or its holder, or std::make_shared,
// from arguments that hold no other module (a copy shares its parameters).
static bool constructed(const Expr *Init) {
  Init = Init->IgnoreImplicit();
  if (const auto *Call = dyn_cast<CallExpr>(Init)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier() || FD->getName() != "make_shared")
      return false;
  } else if (!isa<CXXConstructExpr, CXXTemporaryObjectExpr>(Init)) {
    return false;
  }
  for (const Stmt *Child : Init->children())
    if (const auto *E = dyn_cast_or_null<Expr>(Child))
      if (heldModule(E->IgnoreImplicit()->getType()) && !isa<CXXConstructExpr>(E->IgnoreImplicit()))
        return false;
  return true;
}

namespace {
// Every use of V calls a method of the module other than to(): through
// ->, . or the holder's call operator, or saves it with torch::save. get()
// and ptr() hand the module out.
class UseChecker : public RecursiveASTVisitor<UseChecker> {
public:
  UseChecker(const VarDecl &V, ASTContext &Ctx) : V(V), Ctx(Ctx) {}
  bool Moved = false;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl() == &V && !onlyCalled(*E))
      Moved = true;
    return !Moved;
  }

private:
  const Expr *parentExpr(const Expr &E) {
    for (const DynTypedNode &P : Ctx.getParents(E))
      if (const auto *PE = P.get<Expr>())
        return PE;
    return nullptr;
  }
  bool onlyCalled(const Expr &Use) {
    const Expr *E = &Use;
    const Expr *P = parentExpr(*E);
    while (P && isa<ImplicitCastExpr, ParenExpr>(P)) {
      E = P;
      P = parentExpr(*P);
    }
    if (const auto *Call = dyn_cast_or_null<CallExpr>(P); Call && !isa<CXXOperatorCallExpr>(P)) {
      const FunctionDecl *FD = Call->getDirectCallee();  // torch::save(net, path) reads it
      return FD && isTorchDecl(FD) && FD->getIdentifier() && FD->getName() == "save";
    }
    if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(P)) {
      if (Op->getOperator() == OO_Call && Op->getArg(0) == E)
        return true;  // net(x)
      if (Op->getOperator() != OO_Arrow)
        return false;
      E = P;
      P = parentExpr(*P);
      while (P && isa<ImplicitCastExpr, ParenExpr>(P)) {
        E = P;
        P = parentExpr(*P);
      }
    }
    const auto *ME = dyn_cast_or_null<MemberExpr>(P);
    const auto *MD = ME ? dyn_cast<CXXMethodDecl>(ME->getMemberDecl()) : nullptr;
    return MD && MD->getIdentifier() &&
           !llvm::is_contained({"to", "apply", "load", "get", "ptr"}, MD->getName());
  }

  const VarDecl &V;
  ASTContext &Ctx;
};
} // namespace

static bool usedOtherwise(const Stmt &S, const VarDecl &V) {
  UseChecker Uses(V, V.getASTContext());
  Uses.TraverseStmt(const_cast<Stmt *>(&S));
  return Uses.Moved;
}

// net->to(d) or net.to(d) that moves V to a device, as a statement of its
// own: d.
static const Expr *moveDestination(const Stmt &S, const VarDecl &V) {
  const auto *E = dyn_cast<Expr>(&S);
  const auto *To = E ? dyn_cast<CXXMemberCallExpr>(E->IgnoreImplicit()) : nullptr;
  const CXXMethodDecl *MD = To ? To->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || MD->getName() != "to" || !isModuleClass(MD->getParent()) ||
      To->getNumArgs() == 0 || MD->getNumParams() == 0 || moduleVar(*To) != &V)
    return nullptr;
  QualType P = MD->getParamDecl(0)->getType().getNonReferenceType();
  return isDeviceType(P) || isDeviceTypeEnum(P) ? To->getArg(0) : nullptr;
}

const Expr *deviceModuleMovedTo(const CallExpr &Call) {
  const VarDecl *V = moduleVar(Call);
  const auto *FD = V ? dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()) : nullptr;
  if (!FD || !V->isLocalVarDeclOrParm() || !heldModule(V->getType()))
    return nullptr;
  const Expr *Dest = nullptr;
  auto Earlier = [&](const Stmt &S) {
    if ((Dest = moveDestination(S, *V)))
      return Step::Found;
    return usedOtherwise(S, *V) ? Step::Stop : Step::Next;
  };
  return walkBack(Call, *FD, Earlier, [&](const Stmt &S) { return usedOtherwise(S, *V); }) ? Dest
                                                                                          : nullptr;
}

bool forwardOfModuleMovedToCpu(const CallExpr &Call) {
  const Expr *Dest = deviceModuleMovedTo(Call);
  return Dest && knownDeviceKind(Dest) == DeviceKind::Cpu;
}

bool forwardOfHostModule(const CallExpr &Call) {
  const VarDecl *V = moduleVar(Call);
  const auto *FD = V ? dyn_cast<FunctionDecl>(V->getDeclContext()) : nullptr;
  if (!FD || !FD->getBody() || !V->isLocalVarDecl() || V->isStaticLocal() ||
      V->getType()->isReferenceType() || !heldModule(V->getType()) || !V->getInit() ||
      !constructed(V->getInit()) || mentionsDevice(FD->getBody()))
    return false;
  return !usedOtherwise(*FD->getBody(), *V);
}

} // namespace torchtidy
