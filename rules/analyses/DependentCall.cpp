#include "analyses/DependentCall.h"

#include "analyses/DeviceExpr.h"
#include "analyses/SyncingOps.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy {

namespace {
struct Member {
  llvm::StringRef Name;
  SourceLocation Loc;
};
} // namespace

// The member named by an unresolved callee (obj.name(...)), when the
// object's type is dependent or a tensor.
static std::optional<Member> unresolvedMember(const CallExpr &Call) {
  const Expr *Callee = Call.getCallee()->IgnoreParenImpCasts();
  QualType Base;
  DeclarationName Name;
  SourceLocation Loc;
  if (const auto *DM = dyn_cast<CXXDependentScopeMemberExpr>(Callee)) {
    Base = DM->getBaseType();
    Name = DM->getMember();
    Loc = DM->getMemberLoc();
  } else if (const auto *UM = dyn_cast<UnresolvedMemberExpr>(Callee)) {
    Base = UM->getBaseType();
    Name = UM->getMemberName();
    Loc = UM->getMemberLoc();
  } else {
    return std::nullopt;
  }
  if (Base.isNull() || !Name.isIdentifier() || !(Base->isDependentType() || isTensorType(Base)))
    return std::nullopt;
  return Member{Name.getAsIdentifierInfo()->getName(), Loc};
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
  for (const ClassTemplateSpecializationDecl *Spec : CTD->specializations()) {
    if (FTD)  // a member template: instantiations of it are not tracked here
      return false;
    for (const Decl *D : Spec->decls())
      if (const auto *M = dyn_cast<FunctionDecl>(D); M && instantiatedFrom(M, FD))
        return false;
  }
  return true;
}

static Effect effect(EffectKind K, const CallExpr &Call, SourceLocation Loc, std::string What,
                     const char *Detail) {
  return Effect{K, &Call, Loc, FilePos(), std::move(What), Detail};
}

std::optional<Effect> classifyDependentCall(const CallExpr &Call, ASTContext &Ctx) {
  std::optional<Member> M = unresolvedMember(Call);
  if (!M)
    return std::nullopt;
  const char *Blocking = "is a blocking copy from host to device";
  std::optional<Effect> E;
  if (std::optional<SyncingOp> Op = syncingMethod(M->Name))
    E = effect(EffectKind::HostSync, Call, M->Loc, Op->What, Op->Detail);
  else if (M->Name == "cuda")
    E = effect(EffectKind::Copy, Call, M->Loc, "'.cuda()'", Blocking);
  else if (M->Name == "to" && Call.getNumArgs() > 0) {
    const Expr *Arg = Call.getArg(0);
    DeviceKind K = literalDeviceKind(Arg);
    if (K == DeviceKind::Cpu)
      E = effect(EffectKind::HostSync, Call, M->Loc, "'.to(torch::kCPU)'",
                 syncingMethod("cpu")->Detail);
    else if (K == DeviceKind::Cuda)
      E = effect(EffectKind::Copy, Call, M->Loc, "'.to(torch::kCUDA)'", Blocking);
    else if (!Arg->isTypeDependent() && isDeviceType(Arg->getType()))
      E = effect(EffectKind::Copy, Call, M->Loc, "'.to(device)'", Blocking);
  }
  if (!E || !inUninstantiatedTemplate(Call, Ctx))
    return std::nullopt;
  return E;
}

} // namespace torchtidy
