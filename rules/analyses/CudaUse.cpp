#include "analyses/CudaUse.h"

#include "analyses/DeviceExpr.h"
#include "analyses/TensorDevice.h"
#include "analyses/TorchTypes.h"
#include "analyses/VarValues.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace torchtidy {

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
  // Only declarations tell: function bodies are not walked.
  bool TraverseStmt(Stmt *) { return true; }
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

} // namespace torchtidy
