// Provenance through code Clang could not check (an argument's type comes
// from a header that is missing): the calls it keeps unresolved still name
// LibTorch's factories and tensor methods.
#include "analyses/DeviceExpr.h"
#include "analyses/PlaceFlow.h"
#include "analyses/TensorFactory.h"
#include "analyses/TensorPlace.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy::place {

static bool broken(const Expr *E) { return E->containsErrors() || E->isTypeDependent(); }

static bool isOptionalDevice(QualType T) {
  const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  return S && S->getIdentifier() && S->getName() == "optional" &&
         S->getTemplateArgs().size() == 1 &&
         S->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
         isDeviceType(S->getTemplateArgs()[0].getAsType());
}

// A parameter that could take a device: options, a device, its type.
static bool takesDevice(const ParmVarDecl &P) {
  QualType T = P.getType().getNonReferenceType();
  return isTensorOptionsType(T) || isDeviceType(T) || isDeviceTypeEnum(T) ||
         isOptionalDevice(T) || T->isDependentType();
}

// torch::from_blob(img.data, {img.rows, img.cols, 3}, torch::kByte) with
// img of an unknown type: every function the name finds is a LibTorch
// factory, its valid arguments name no device, and the broken ones stand
// where none of those functions takes a device.
static bool hostFactoryOfBrokenArgs(const CallExpr &Call) {
  const auto *Name = dyn_cast<UnresolvedLookupExpr>(Call.getCallee()->IgnoreParenImpCasts());
  if (!Name || Name->getNumDecls() == 0)
    return false;
  for (const NamedDecl *D : Name->decls()) {
    const FunctionDecl *FD = D->getUnderlyingDecl()->getAsFunction();
    if (!isTensorFactory(FD))
      return false;
    for (unsigned I = 0; I < Call.getNumArgs(); ++I)
      if (broken(Call.getArg(I)) &&
          (I >= FD->getNumParams() || takesDevice(*FD->getParamDecl(I))))
        return false;
  }
  return llvm::none_of(Call.arguments(), [](const Expr *A) {
    return !broken(A) && (mentionsDevice(A) || opaqueOptionsIn(A));
  });
}

// Tensor methods that keep the tensor where it is, known by name on an
// object whose type Clang lost: the views, and copies on the same device.
static bool keepsPlace(StringRef Name) {
  static const StringRef Methods[] = {"clone",   "contiguous", "detach",    "permute",
                                      "reshape", "squeeze",    "unsqueeze", "transpose",
                                      "flatten"};
  return isViewMethod(Name) || llvm::is_contained(Methods, Name);
}

std::optional<bool> brokenMadeThere(const Expr *E, int Depth, Question &Q) {
  const auto *Call = dyn_cast<CallExpr>(E);
  if (!Call || !Call->containsErrors())
    return std::nullopt;
  if (const auto *M = dyn_cast<CXXDependentScopeMemberExpr>(Call->getCallee()->IgnoreParens())) {
    if (M->isImplicitAccess() || !M->getMember().isIdentifier() ||
        !keepsPlace(M->getMember().getAsIdentifierInfo()->getName()) ||
        llvm::any_of(Call->arguments(), [](const Expr *A) { return mentionsDevice(A); }))
      return std::nullopt;
    return lives(M->getBase(), Depth + 1, Q);
  }
  if (hostFactoryOfBrokenArgs(*Call))
    return Q.Where == Place::Host;
  return std::nullopt;
}

} // namespace torchtidy::place
