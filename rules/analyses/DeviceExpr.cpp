#include "analyses/DeviceExpr.h"

#include "analyses/TensorPlace.h"
#include "analyses/TensorDevice.h"
#include "analyses/TensorFactory.h"
#include "analyses/TorchTypes.h"
#include "analyses/VarValues.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace torchtidy {

static DeviceKind deviceTypeKind(const ValueDecl *D) {
  if (const auto *EC = llvm::dyn_cast<EnumConstantDecl>(D)) {
    if (EC->getQualifiedNameAsString() == "c10::DeviceType::CUDA")
      return DeviceKind::Cuda;
    if (EC->getQualifiedNameAsString() == "c10::DeviceType::CPU")
      return DeviceKind::Cpu;
  }
  if (const auto *VD = llvm::dyn_cast<VarDecl>(D)) {
    std::string Name = VD->getQualifiedNameAsString();
    if (Name == "c10::kCUDA")
      return DeviceKind::Cuda;
    if (Name == "c10::kCPU")
      return DeviceKind::Cpu;
  }
  return DeviceKind::Unknown;
}

static DeviceKind stringDeviceKind(llvm::StringRef S) {
  if (S.starts_with("cuda"))
    return DeviceKind::Cuda;
  if (S == "cpu")
    return DeviceKind::Cpu;
  return DeviceKind::Unknown;
}

// Looks through implicit conversions and temporaries.
static const Expr *skipTemporaries(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *M = llvm::dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (const auto *B = llvm::dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (const auto *F = llvm::dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else
      return E;
  }
}

static bool isDeviceOrOptions(const Expr *E) {
  return isDeviceType(E->getType()) || isTensorOptionsType(E->getType());
}

const Expr *innerDeviceExpr(const Expr *E) {
  E = skipTemporaries(E);
  while (const auto *C = llvm::dyn_cast<CXXConstructExpr>(E)) {
    if (!isDeviceOrOptions(C) || C->getNumArgs() == 0)
      return E;
    const Expr *Arg = skipTemporaries(C->getArg(0));
    if (!llvm::isa<DeclRefExpr>(Arg) && !isDeviceOrOptions(Arg))
      return E;
    E = Arg;
  }
  return E;
}

static const StringLiteral *stringArg(const CXXConstructExpr *C) {
  const Expr *Arg = skipTemporaries(C->getArg(0));
  if (const auto *SC = llvm::dyn_cast<CXXConstructExpr>(Arg); SC && SC->getNumArgs() > 0)
    Arg = skipTemporaries(SC->getArg(0));
  return llvm::dyn_cast<StringLiteral>(Arg);
}

DeviceKind literalDeviceKind(const Expr *E) {
  const Expr *Inner = innerDeviceExpr(E);
  if (!Inner)
    return DeviceKind::Unknown;
  if (const auto *DRE = llvm::dyn_cast<DeclRefExpr>(Inner))
    return deviceTypeKind(DRE->getDecl());
  if (const auto *C = llvm::dyn_cast<CXXConstructExpr>(Inner);
      C && C->getNumArgs() > 0 && isDeviceType(C->getType()))
    if (const StringLiteral *S = stringArg(C))
      return stringDeviceKind(S->getString());
  return DeviceKind::Unknown;
}

const Expr *deviceLiteralSite(const Expr *E) {
  return literalDeviceKind(E) == DeviceKind::Unknown ? nullptr : innerDeviceExpr(E);
}

namespace {
class DeviceMention : public RecursiveASTVisitor<DeviceMention> {
public:
  bool Found = false;
  bool VisitExpr(Expr *E) {
    QualType T = E->getType();
    Found |= isDeviceType(T);
    Found |= isDeviceTypeEnum(T);
    if (const auto *Call = llvm::dyn_cast<CXXMemberCallExpr>(E))
      Found |= isTensorMethod(Call->getMethodDecl(), "options");
    return !Found;
  }
};
} // namespace

bool mentionsDevice(const Stmt *S) {
  DeviceMention M;
  M.TraverseStmt(const_cast<Stmt *>(S));
  return M.Found;
}

// The variable's initialiser when E names a local or parameter.
static const Expr *initOfVariable(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      return V->getInit();
  return nullptr;
}

// Variables are followed through their initialisers, a few steps deep.
static constexpr int MaxInitChain = 8;

// Options built with .pinned_memory(true) somewhere in the argument.
static bool hasPinnedOption(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
    if (isTensorOptionsType(MC->getType()) && MC->getMethodDecl()->getIdentifier() &&
        MC->getMethodDecl()->getName() == "pinned_memory" && MC->getNumArgs() == 1)
      if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(MC->getArg(0)->IgnoreUnlessSpelledInSource()))
        if (B->getValue())
          return true;
  return llvm::any_of(S->children(), hasPinnedOption);
}

static bool isPinned(const Expr *E, int Depth) {
  if (!E || Depth > MaxInitChain)
    return false;
  E = ignoreTensorWrappers(E);
  if (asTensorMethodCall(E, "pin_memory"))
    return true;
  if (const Expr *Init = initOfVariable(E))
    return isPinned(Init, Depth + 1);
  if (const auto *C = dyn_cast<CallExpr>(E))
    if (isTensorFactory(C->getDirectCallee()))
      return hasPinnedOption(C);
  return false;
}

bool isProvablyPinned(const Expr *Tensor) { return isPinned(Tensor, 0); }

// A field of torch::data::Example: the C++ DataLoader has no pin_memory, so
// its batches are pageable.
static bool isExampleField(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME || !isa<FieldDecl>(ME->getMemberDecl()))
    return false;
  const auto *RD = dyn_cast<CXXRecordDecl>(ME->getMemberDecl()->getDeclContext());
  return RD && RD->getQualifiedNameAsString() == "torch::data::Example";
}

static bool isPageable(const Expr *E, int Depth) {
  if (!E || Depth > MaxInitChain)
    return false;
  E = ignoreTensorWrappers(E);
  if (isPinned(E, Depth))
    return false;
  if (isExampleField(E->IgnoreParenImpCasts()))
    return true;
  // A copy to the CPU of a pinned CPU tensor returns the tensor itself.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E); MC && isCopyToHost(MC))
    return !isPinned(MC->getImplicitObjectArgument(), Depth);
  if (const Expr *Init = initOfVariable(E))
    return isPageable(Init, Depth + 1);
  if (const auto *C = dyn_cast<CallExpr>(E))
    if (isTensorFactory(C->getDirectCallee()) && !hasPinnedOption(C) && !opaqueOptionsArg(*C))
      return !callNamesDevice(*C) || llvm::any_of(C->arguments(), [](const Expr *A) {
               return knownDeviceKind(A) == DeviceKind::Cpu;
             });
  return false;
}

bool isProvablyPageable(const Expr *Tensor) { return isPageable(Tensor, 0); }

} // namespace torchtidy

namespace torchtidy {

static void addDeviceVar(const ValueDecl *D, std::vector<std::string> &Out) {
  if (D && !D->getName().empty() && isDeviceType(D->getType()))
    Out.push_back(D->getNameAsString());
}

std::vector<std::string> visibleDeviceVariables(const Stmt &S, ASTContext &Ctx) {
  std::vector<std::string> Names;
  DynTypedNode Child = DynTypedNode::create(S);
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *CS = P.get<CompoundStmt>()) {
      for (const Stmt *Sub : CS->body()) {
        if (Sub == Child.get<Stmt>())
          break;
        if (const auto *DS = llvm::dyn_cast<DeclStmt>(Sub))
          for (const Decl *D : DS->decls())
            addDeviceVar(llvm::dyn_cast<VarDecl>(D), Names);
      }
    } else if (const auto *LE = P.get<LambdaExpr>()) {
      for (const ParmVarDecl *Param : LE->getCallOperator()->parameters())
        addDeviceVar(Param, Names);
      if (LE->getCaptureDefault() == LCD_None)
        return Names;
    } else if (const auto *FD = P.get<FunctionDecl>()) {
      for (const ParmVarDecl *Param : FD->parameters())
        addDeviceVar(Param, Names);
      if (const auto *MD = llvm::dyn_cast<CXXMethodDecl>(FD);
          MD && !MD->isStatic() && !MD->getParent()->isLambda())
        for (const FieldDecl *F : MD->getParent()->fields())
          addDeviceVar(F, Names);
      return Names;
    }
    Child = P;
    Parents = Ctx.getParents(P);
  }
  return Names;
}

} // namespace torchtidy
