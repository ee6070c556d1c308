#include "analyses/DependentCall.h"

#include "analyses/DeviceExpr.h"
#include "analyses/ReachingValue.h"
#include "analyses/SyncingOps.h"
#include "analyses/TensorPlace.h"
#include "analyses/TorchTypes.h"
#include "analyses/VarValues.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy {

namespace {
struct Member {
  llvm::StringRef Name;
  SourceLocation Loc;
  const Expr *Obj;  // null for this
};
} // namespace

// The member named by an unresolved callee (obj.name(...)), when the
// object's type is dependent or a tensor.
static std::optional<Member> unresolvedMember(const CallExpr &Call) {
  const Expr *Callee = Call.getCallee()->IgnoreParenImpCasts();
  QualType Base;
  DeclarationName Name;
  SourceLocation Loc;
  const Expr *Obj = nullptr;
  if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
    Base = DM->getBaseType();
    Name = DM->getMember();
    Loc = DM->getMemberLoc();
    Obj = DM->isImplicitAccess() ? nullptr : DM->getBase();
  } else if (const auto *UM = dyn_cast<UnresolvedMemberExpr>(Callee)) {
    Base = UM->getBaseType();
    Name = UM->getMemberName();
    Loc = UM->getMemberLoc();
    Obj = UM->isImplicitAccess() ? nullptr : UM->getBase();
  } else {
    return std::nullopt;
  }
  if (Base.isNull() || !Name.isIdentifier() || !(Base->isDependentType() || isTensorType(Base)))
    return std::nullopt;
  return Member{Name.getAsIdentifierInfo()->getName(), Loc, Obj};
}

static bool isCopyToCpu(const CallExpr &Call, const Member &M) {
  return M.Name == "cpu" ||
         (M.Name == "to" && Call.getNumArgs() > 0 &&
          literalDeviceKind(Call.getArg(0)) == DeviceKind::Cpu);
}

// The object was copied to the host where the code shows it, though its
// type is unknown: t.cpu(), a local holding t.to(torch::kCPU), or an
// element or view of one (cpu_t[i], cpu_t.select(0, i)).
static bool copiedToHost(const Expr *Obj, int Depth = 0) {
  if (!Obj || Depth > 4)
    return false;
  Obj = Obj->IgnoreParenImpCasts();
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Obj))
    return copiedToHost(Sub->getBase(), Depth + 1);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Obj);
      Op && Op->getOperator() == OO_Subscript && Op->getNumArgs() > 0)
    return copiedToHost(Op->getArg(0), Depth + 1);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    const Expr *Value = reachingValue(*DRE);
    return copiedToHost(Value ? Value : lastingInit(V), Depth + 1);
  }
  const auto *Call = dyn_cast<CallExpr>(Obj);
  std::optional<Member> M = Call ? unresolvedMember(*Call) : std::nullopt;
  if (!M)
    return Call && Call->getDirectCallee() && isProvablyOnCpu(Call);
  return isCopyToCpu(*Call, *M) || (isViewMethod(M->Name) && copiedToHost(M->Obj, Depth + 1));
}

// The function whose body holds a lambda's body.
static const FunctionDecl *outsideLambdas(const FunctionDecl *FD) {
  while (FD && isa<CXXMethodDecl>(FD) && cast<CXXMethodDecl>(FD)->getParent()->isLambda() &&
         !FD->getDescribedFunctionTemplate())
    FD = dyn_cast<FunctionDecl>(cast<CXXMethodDecl>(FD)->getParent()->getDeclContext());
  return FD;
}

static bool anyDefined(llvm::iterator_range<FunctionTemplateDecl::spec_iterator> Specs) {
  return llvm::any_of(Specs, [](const FunctionDecl *S) { return S->isDefined(); });
}

static bool instantiatedFrom(const FunctionDecl *M, const FunctionDecl *Pattern) {
  const FunctionDecl *P = M->getTemplateInstantiationPattern();
  return P && P->getCanonicalDecl() == Pattern->getCanonicalDecl() && M->isDefined();
}

// A class template specialization's member template made from Pattern's.
static bool instantiatedFrom(const FunctionTemplateDecl &M, const FunctionTemplateDecl &Pattern) {
  const FunctionTemplateDecl *From = M.getInstantiatedFromMemberTemplate();
  return From && From->getCanonicalDecl() == Pattern.getCanonicalDecl();
}

// The call is in a template pattern of which no instantiation has a body: a
// function template, a member function of a class template, or a member
// template of a class template that is never instantiated.
static bool inUninstantiatedTemplate(const CallExpr &Call, ASTContext &Ctx) {
  const FunctionDecl *FD = outsideLambdas(enclosingFunction(Call, Ctx));
  if (!FD || !FD->isDependentContext())
    return false;
  const auto *Parent = dyn_cast<CXXRecordDecl>(FD->getDeclContext());
  const ClassTemplateDecl *CTD = Parent ? Parent->getDescribedClassTemplate() : nullptr;
  const FunctionTemplateDecl *FTD = FD->getDescribedFunctionTemplate();
  if (FTD && !(Parent && Parent->isDependentContext()))
    return !anyDefined(FTD->specializations());
  if (!CTD)
    return false;
  for (const ClassTemplateSpecializationDecl *Spec : CTD->specializations())
    for (const Decl *D : Spec->decls()) {
      const auto *M = dyn_cast<FunctionDecl>(D);
      const auto *MT = dyn_cast<FunctionTemplateDecl>(D);
      if (FTD ? MT && instantiatedFrom(*MT, *FTD) && anyDefined(MT->specializations())
              : M && instantiatedFrom(M, FD))
        return false;
    }
  return true;
}

// Outside templates a type is dependent only where Clang lost it to an
// error: an object of a type a missing header declares.
static bool fromAnError(const CallExpr &Call, ASTContext &Ctx) {
  const FunctionDecl *FD = enclosingFunction(Call, Ctx);
  return Call.containsErrors() && FD && !FD->isDependentContext();
}

static Effect effect(EffectKind K, const CallExpr &Call, SourceLocation Loc, std::string What,
                     const char *Detail) {
  return Effect{K, &Call, Loc, FilePos(), std::move(What), Detail};
}

// f(args) with a dependent argument, where every function the name finds is
// the same syncing function of LibTorch's
// (torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0)).
static std::optional<SyncingOp> unresolvedSyncingFunction(const CallExpr &Call) {
  const auto *Name = dyn_cast<UnresolvedLookupExpr>(Call.getCallee()->IgnoreParenImpCasts());
  if (!Name || Name->getNumDecls() == 0)
    return std::nullopt;
  std::optional<SyncingOp> Op;
  for (const NamedDecl *D : Name->decls()) {
    const FunctionDecl *FD = D->getUnderlyingDecl()->getAsFunction();
    std::optional<SyncingOp> This = FD ? syncingFunction(*FD) : std::nullopt;
    if (!This || (Op && Op->What != This->What))
      return std::nullopt;
    Op = This;
  }
  return Op;
}

// A std::string, which converts to the device it names (x.to(device->str())).
static bool isStdString(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() && RD->getName() == "basic_string";
}

// What obj.name(args) does, judged by the member's name.
static std::optional<Effect> memberEffect(const CallExpr &Call, const Member &M) {
  const char *Blocking = "is a blocking copy from host to device";
  if (std::optional<SyncingOp> Op = syncingMethod(M.Name))
    return copiedToHost(M.Obj) ? std::nullopt
                               : std::optional(effect(EffectKind::HostSync, Call, M.Loc,
                                                      Op->What, Op->Detail));
  if (M.Name == "cuda")
    return effect(EffectKind::Copy, Call, M.Loc, "'.cuda()'", Blocking);
  // A module's or an optimizer's clear (this->net->zero_grad() with net a
  // std::shared_ptr<NetT>): what the loop needs, whatever the type.
  if (M.Name == "zero_grad")
    return effect(EffectKind::ZeroGrad, Call, M.Loc, "'zero_grad()'", "");
  if (M.Name != "to" || Call.getNumArgs() == 0)
    return std::nullopt;
  const Expr *Arg = Call.getArg(0);
  DeviceKind K = literalDeviceKind(Arg);
  if (K == DeviceKind::Cpu)
    return effect(EffectKind::HostSync, Call, M.Loc, "'.to(torch::kCPU)'",
                  syncingMethod("cpu")->Detail);
  if (K == DeviceKind::Cuda)
    return effect(EffectKind::Copy, Call, M.Loc, "'.to(torch::kCUDA)'", Blocking);
  if (!Arg->isTypeDependent() && (isDeviceType(Arg->getType()) || isStdString(Arg->getType())))
    return effect(EffectKind::Copy, Call, M.Loc, "'.to(device)'", Blocking);
  return std::nullopt;
}

std::optional<Effect> classifyDependentCall(const CallExpr &Call, ASTContext &Ctx) {
  std::optional<Effect> E;
  if (std::optional<SyncingOp> Op = unresolvedSyncingFunction(Call))
    E = effect(EffectKind::HostSync, Call, Call.getBeginLoc(), Op->What, Op->Detail);
  else if (std::optional<Member> M = unresolvedMember(Call))
    E = memberEffect(Call, *M);
  if (!E || !(inUninstantiatedTemplate(Call, Ctx) || fromAnError(Call, Ctx)))
    return std::nullopt;
  return E;
}

const FunctionDecl *dependentCallee(const CallExpr &Call, ASTContext &Ctx) {
  const auto *Name = dyn_cast<UnresolvedLookupExpr>(Call.getCallee()->IgnoreParenImpCasts());
  if (!Name || Name->getNumDecls() == 0)
    return nullptr;
  const FunctionDecl *Only = nullptr;
  for (const NamedDecl *D : Name->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D->getUnderlyingDecl());
    if (!FD || (Only && FD->getCanonicalDecl() != Only->getCanonicalDecl()))
      return nullptr;
    Only = FD;
  }
  unsigned N = Call.getNumArgs();
  if (Only->isVariadic() || N < Only->getMinRequiredArguments() || N > Only->getNumParams() ||
      Ctx.getSourceManager().isInSystemHeader(Only->getLocation()) ||
      !inUninstantiatedTemplate(Call, Ctx))
    return nullptr;
  return Only;
}

} // namespace torchtidy
