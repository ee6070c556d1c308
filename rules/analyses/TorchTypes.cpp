#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace torchtidy {

const CXXRecordDecl *recordOf(QualType T) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType();
  const auto *RD = T->getAsCXXRecordDecl();
  return RD ? RD->getDefinition() ? RD->getDefinition() : RD : nullptr;
}

static bool hasQualifiedName(const CXXRecordDecl *RD, llvm::StringRef Name) {
  return RD->getQualifiedNameAsString() == Name;
}

bool isOrDerivesFrom(const CXXRecordDecl *RD, llvm::StringRef QualifiedName) {
  if (!RD)
    return false;
  RD = RD->getDefinition() ? RD->getDefinition() : RD;
  if (hasQualifiedName(RD, QualifiedName))
    return true;
  if (!RD->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (isOrDerivesFrom(recordOf(Base.getType()), QualifiedName))
      return true;
  return false;
}

bool isTensorType(QualType T) {
  return isOrDerivesFrom(recordOf(T), "at::TensorBase");
}

bool isDeviceType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  return RD && hasQualifiedName(RD, "c10::Device");
}

bool isDeviceTypeEnum(QualType T) {
  const auto *ET = T->getAs<EnumType>();
  return ET && ET->getDecl()->getQualifiedNameAsString() == "c10::DeviceType";
}

bool isTensorOptionsType(QualType T) {
  const CXXRecordDecl *RD = recordOf(T);
  return RD && hasQualifiedName(RD, "c10::TensorOptions");
}

bool isModuleClass(const CXXRecordDecl *RD) {
  return isOrDerivesFrom(RD, "torch::nn::Module");
}

bool isOptimizerClass(const CXXRecordDecl *RD) {
  return isOrDerivesFrom(RD, "torch::optim::Optimizer");
}

bool isModuleForwardCall(const CallExpr &Call) {
  const auto *MD = llvm::dyn_cast_or_null<CXXMethodDecl>(Call.getDirectCallee());
  if (!MD)
    return false;
  const CXXRecordDecl *RD = MD->getParent();
  if (llvm::isa<CXXOperatorCallExpr>(Call))
    return MD->getOverloadedOperator() == OO_Call && isOrDerivesFrom(RD, "torch::nn::ModuleHolder");
  return MD->getIdentifier() && MD->getName() == "forward" &&
         (isModuleClass(RD) || isOrDerivesFrom(RD, "torch::nn::AnyModule") ||
          isOrDerivesFrom(RD, "torch::jit::Module"));
}

// The class of the first template argument of RD or of the base of RD
// that is a specialization of Template.
static const CXXRecordDecl *firstArgumentOf(const CXXRecordDecl *RD, llvm::StringRef Template) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (Spec && hasQualifiedName(Spec, Template) && Spec->getTemplateArgs().size() > 0 &&
      Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    return recordOf(Spec->getTemplateArgs()[0].getAsType());
  if (!RD || !RD->hasDefinition())
    return nullptr;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (const CXXRecordDecl *Arg = firstArgumentOf(recordOf(Base.getType()), Template))
      return Arg;
  return nullptr;
}

const CXXRecordDecl *heldModule(QualType T) {
  T = T.getNonReferenceType();
  const CXXRecordDecl *RD = recordOf(T->isPointerType() ? T->getPointeeType() : T);
  if (const CXXRecordDecl *Pointee = firstArgumentOf(RD, "std::shared_ptr"))
    RD = Pointee;
  if (const CXXRecordDecl *Impl = firstArgumentOf(RD, "torch::nn::ModuleHolder"))
    RD = Impl;
  return RD && isModuleClass(RD) ? RD : nullptr;
}

const FunctionDecl *holderForward(const CallExpr &Call) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  if (!Op || !isModuleForwardCall(Call))
    return nullptr;
  const CXXRecordDecl *Impl = heldModule(Op->getArg(0)->getType());
  if (!Impl)
    return nullptr;
  const FunctionDecl *First = nullptr;
  for (const CXXMethodDecl *MD : Impl->methods())
    if (MD->getIdentifier() && MD->getName() == "forward") {
      if (MD->getNumParams() == Call.getNumArgs() - 1)
        return MD;
      First = First ? First : MD;
    }
  return First;
}

bool isTensorMethod(const FunctionDecl *FD, llvm::StringRef Name) {
  const auto *MD = llvm::dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!MD || MD->getName() != Name)
    return false;
  const CXXRecordDecl *RD = MD->getParent();
  return hasQualifiedName(RD, "at::Tensor") || hasQualifiedName(RD, "at::TensorBase");
}

const FunctionDecl *enclosingFunction(const Stmt &S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *FD = P.get<FunctionDecl>())
      return FD;
    if (const auto *LE = P.get<LambdaExpr>())
      return LE->getCallOperator();
    Parents = Ctx.getParents(P);
  }
  return nullptr;
}

const CXXRecordDecl *enclosingModuleClass(const Stmt &S, ASTContext &Ctx) {
  // Default member initializers have a field, not a function, as parent.
  DynTypedNodeList Parents = Ctx.getParents(S);
  const DeclContext *DC = nullptr;
  while (!Parents.empty() && !DC) {
    const DynTypedNode &P = Parents[0];
    if (const auto *D = P.get<Decl>())
      DC = llvm::isa<DeclContext>(D) ? llvm::cast<DeclContext>(D) : D->getDeclContext();
    else
      Parents = Ctx.getParents(P);
  }
  // Semantic parents: an out-of-line method leads to its class, a lambda's
  // class to the function that holds it.
  for (; DC; DC = DC->getParent()) {
    const auto *RD = llvm::dyn_cast<CXXRecordDecl>(DC);
    if (RD && !RD->isLambda() && isModuleClass(RD))
      return RD;
  }
  return nullptr;
}

// Projects put their own classes in namespace torch too; LibTorch's are in
// system headers under torchtidy, and under LibTorch's include tree when a
// hand-written -I makes them user headers (the clang-tidy plugin).
static bool inLibTorchHeader(const Decl *D) {
  const SourceManager &SM = D->getASTContext().getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return true;
  std::string Path = ("/" + SM.getFilename(Loc)).str();
  std::replace(Path.begin(), Path.end(), '\\', '/');
  for (llvm::StringRef Dir : {"/torch/csrc/", "/ATen/", "/c10/", "/caffe2/"})
    if (llvm::StringRef(Path).contains(Dir))
      return true;
  return false;
}

bool isTorchDecl(const Decl *D) {
  const NamespaceDecl *Outer = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outer = NS;
  return Outer &&
         (Outer->getName() == "at" || Outer->getName() == "torch" || Outer->getName() == "c10") &&
         inLibTorchHeader(D);
}

const Expr *ignoreTensorWrappers(const Expr *E) {
  while (E) {
    const Expr *N = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(N))
      N = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(N))
      N = B->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(N))
      if (C->getNumArgs() == 1 && isTensorType(C->getType()) && isTensorType(C->getArg(0)->getType()))
        N = C->getArg(0);
    if (N == E)
      return E;
    E = N;
  }
  return E;
}

const CXXMemberCallExpr *asTensorMethodCall(const Expr *E, llvm::StringRef Name) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(ignoreTensorWrappers(E));
  return MC && isTensorMethod(MC->getMethodDecl(), Name) ? MC : nullptr;
}

const Expr *returnedOperand(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !isTorchDecl(FD))
    return nullptr;
  llvm::StringRef Name = FD->getIdentifier() ? FD->getName() : "";
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call))
    return Name.ends_with("_") || (Name.ends_with("_as") && Name != "type_as")
               ? MC->getImplicitObjectArgument()
               : nullptr;
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  return Call.getNumArgs() > 0 && (Name.ends_with("_out") || (Op && Op->isAssignmentOp()))
             ? Call.getArg(0)
             : nullptr;
}

} // namespace torchtidy
