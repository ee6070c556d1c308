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
class AvailabilityFinder : public RecursiveASTVisitor<AvailabilityFinder> {
public:
  bool Found = false;
  int Depth = 0;
  // A local that holds a test's answer (int gpus = device_count(); if
  // (gpus > 1)), never changed.
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *V = dyn_cast<VarDecl>(E->getDecl());
    if (V && V->isLocalVarDecl() && V->getInit() && Depth < 4 && !isDeviceType(V->getType()) &&
        isUnchanged(*V)) {
      AvailabilityFinder Inner;
      Inner.Depth = Depth + 1;
      Inner.TraverseStmt(const_cast<Expr *>(V->getInit()));
      Found |= Inner.Found;
    }
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return true;
    std::string Name = FD->getQualifiedNameAsString();
    Found |= Name == "torch::cuda::is_available" || Name == "torch::cuda::device_count" ||
             Name == "at::hasCUDA" || Name == "c10::Device::is_cuda" ||
             Name == "at::cuda::is_available" || Name == "at::cuda::device_count";
    return !Found;
  }
};
} // namespace

bool isCudaAvailabilityTest(const Expr *Cond) {
  if (!Cond)
    return false;
  AvailabilityFinder F;
  F.TraverseStmt(const_cast<Expr *>(Cond));
  return F.Found;
}

namespace {
// Every declaration the code names.
class NamedFinder : public RecursiveASTVisitor<NamedFinder> {
public:
  llvm::DenseSet<const Decl *> Named;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    Named.insert(E->getDecl());
    return true;
  }
};

class CudaUseFinder : public RecursiveASTVisitor<CudaUseFinder> {
public:
  explicit CudaUseFinder(const llvm::DenseSet<const Decl *> &Named) : Named(Named) {}
  bool Found = false;
  // A device variable nothing reads puts no tensor anywhere (a CUDA device
  // made only to see that one can be).
  bool TraverseVarDecl(VarDecl *D) {
    if (D->isLocalVarDecl() && isDeviceType(D->getType()) && !Named.contains(D))
      return true;
    return RecursiveASTVisitor::TraverseVarDecl(D);
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    // A Device made from a DeviceType or a string (not a copy) that is not
    // the CPU: a CUDA literal, or chosen at run time.
    Found |= isDeviceType(E->getType()) && E->getNumArgs() > 0 &&
             !isDeviceType(E->getArg(0)->getType()) && literalDeviceKind(E) != DeviceKind::Cpu &&
             !heldCpuType(E->getArg(0));
    return !Found;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    Found |= literalDeviceKind(E) == DeviceKind::Cuda;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD)
      return true;
    std::string Name = FD->getQualifiedNameAsString();
    // Asking whether CUDA is there selects nothing by itself: the device a
    // test selects is named where it is chosen (is_available() ? kCUDA : ...).
    static const llvm::StringSet<> Queries = {
        "torch::cuda::is_available", "torch::cuda::device_count", "torch::cuda::cudnn_is_available"};
    Found |= isTensorMethod(FD, "cuda") ||
             (llvm::StringRef(Name).starts_with("torch::cuda::") && !Queries.contains(Name)) ||
             llvm::StringRef(Name).starts_with("at::cuda::") ||
             llvm::StringRef(Name).starts_with("c10::cuda::");
    return !Found;
  }

private:
  // A local that is given the CPU's device type once and never changed
  // (auto device = torch::kCPU;).
  static bool heldCpuType(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return V && V->isLocalVarDecl() && V->getInit() && isUnchanged(*V) &&
           literalDeviceKind(V->getInit()) == DeviceKind::Cpu;
  }

  const llvm::DenseSet<const Decl *> &Named;
};
} // namespace

bool codeMayUseCuda(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto UserDecls = [&] {
    std::vector<Decl *> Out;
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (!SM.isInSystemHeader(D->getLocation()))
        Out.push_back(D);
    return Out;
  }();
  NamedFinder N;
  for (Decl *D : UserDecls)
    N.TraverseDecl(D);
  CudaUseFinder F(N.Named);
  for (Decl *D : UserDecls) {
    F.TraverseDecl(D);
    if (F.Found)
      return true;
  }
  return false;
}

namespace {
class CallerDevices : public RecursiveASTVisitor<CallerDevices> {
public:
  bool Found = false;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    Found |= FD->isExternallyVisible() && !FD->isMain() &&
             llvm::any_of(FD->parameters(), [](const ParmVarDecl *P) { return isDevice(P->getType()); });
    return !Found;
  }
  bool VisitFieldDecl(FieldDecl *F) {
    Found |= F->getAccess() == AS_public && F->getParent()->isExternallyVisible() && isDevice(F->getType());
    return !Found;
  }

private:
  static bool isDevice(QualType T) {
    T = T.getNonReferenceType();
    return isDeviceType(T) || isDeviceTypeEnum(T) || isTensorOptionsType(T);
  }
};
} // namespace

bool takesDeviceFromCaller(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CallerDevices V;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(D->getLocation()) && !V.Found)
      V.TraverseDecl(D);
  return V.Found;
}

// if (!torch::cuda::is_available()) return ...; before Child in a block:
// what follows runs only where the test let it through.
static bool exitsEarlyOnCudaTest(const CompoundStmt &Block, const Stmt *Child) {
  for (const Stmt *S : Block.body()) {
    if (S == Child)
      return false;
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->getElse() || !isCudaAvailabilityTest(If->getCond()))
      continue;
    const Stmt *Then = If->getThen();
    if (const auto *CS = dyn_cast<CompoundStmt>(Then); CS && !CS->body_empty())
      Then = CS->body_back();
    if (const auto *E = dyn_cast<Expr>(Then))
      Then = E->IgnoreImplicit();
    if (isa<ReturnStmt>(Then) || isa<CXXThrowExpr>(Then))
      return true;
  }
  return false;
}

bool isGuardedByCudaTest(const Stmt &S, ASTContext &Ctx) {
  DynTypedNode Child = DynTypedNode::create(S);
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *Block = P.get<CompoundStmt>()) {
      if (exitsEarlyOnCudaTest(*Block, Child.get<Stmt>()))
        return true;
    } else if (const auto *If = P.get<IfStmt>()) {
      if (If->getCond() != Child.get<Expr>() && isCudaAvailabilityTest(If->getCond()))
        return true;
    } else if (const auto *CO = P.get<ConditionalOperator>()) {
      if (CO->getCond() != Child.get<Expr>() && isCudaAvailabilityTest(CO->getCond()))
        return true;
    } else if (P.get<FunctionDecl>()) {
      return false;
    }
    Child = P;
    Parents = Ctx.getParents(P);
  }
  return false;
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
