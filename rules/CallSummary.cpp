#include "CallSummary.h"

#include "DeviceExpr.h"
#include "LoopContext.h"
#include "TorchTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace torchtidy {

static const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *N = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(N))
      N = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(N))
      N = B->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(N)) {
      if (C->getNumArgs() == 1 && isTensorType(C->getType()))
        N = C->getArg(0);
    }
    if (N == E)
      return E;
    E = N;
  }
  return E;
}

static bool inTorchNamespace(const FunctionDecl *FD) {
  std::string Q = FD->getQualifiedNameAsString();
  return llvm::StringRef(Q).starts_with("at::") || llvm::StringRef(Q).starts_with("torch::") ||
         llvm::StringRef(Q).starts_with("c10::");
}

static const CXXMemberCallExpr *asTensorCall(const Expr *E, llvm::StringRef Name) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(strip(E));
  if (MC && isTensorMethod(MC->getMethodDecl(), Name))
    return MC;
  return nullptr;
}

static const VarDecl *varOf(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(E)))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

static bool isCpuImpl(const Expr *E, int Depth) {
  if (!E || Depth > 8)
    return false;
  E = strip(E);
  if (asTensorCall(E, "cpu"))
    return true;
  if (const auto *To = asTensorCall(E, "to"))
    return To->getNumArgs() > 0 && literalDeviceKind(To->getArg(0)) == DeviceKind::Cpu;
  if (const auto *V = varOf(E))
    return V->getInit() && isCpuImpl(V->getInit(), Depth + 1);
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (FD && !isa<CXXMethodDecl>(FD) && inTorchNamespace(FD) && isTensorType(C->getType()))
      for (const Expr *A : C->arguments())
        if (literalDeviceKind(A) == DeviceKind::Cpu)
          return true;
  }
  return false;
}

bool isProvablyOnCpu(const Expr *E) { return isCpuImpl(E, 0); }

static bool hasPinnedOption(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
    if (const auto *MD = MC->getMethodDecl())
      if (MD->getName() == "pinned_memory" && MC->getNumArgs() == 1) {
        bool V = false;
        if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(MC->getArg(0)->IgnoreParenImpCasts()))
          V = B->getValue();
        if (V)
          return true;
      }
  for (const Stmt *C : S->children())
    if (hasPinnedOption(C))
      return true;
  return false;
}

static bool isPinnedImpl(const Expr *E, int Depth) {
  if (!E || Depth > 8)
    return false;
  E = strip(E);
  if (asTensorCall(E, "pin_memory"))
    return true;
  if (const auto *V = varOf(E))
    return V->getInit() && isPinnedImpl(V->getInit(), Depth + 1);
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (FD && !isa<CXXMethodDecl>(FD) && inTorchNamespace(FD) && isTensorType(C->getType()))
      return hasPinnedOption(C);
  }
  return false;
}

bool isProvablyPinned(const Expr *E) { return isPinnedImpl(E, 0); }

// An options argument that carries a device: a Device converted to options,
// or options built with .device(...).
static bool namesDevice(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S)) {
    QualType T = E->getType();
    if (isDeviceType(T))
      return true;
    if (const auto *ET = T->getAs<EnumType>())
      if (ET->getDecl()->getQualifiedNameAsString() == "c10::DeviceType")
        return true;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S))
    if (const auto *MD = MC->getMethodDecl())
      if (MD->getIdentifier() && MD->getName() == "device")
        return true;
  for (const Stmt *C : S->children())
    if (namesDevice(C))
      return true;
  return false;
}

SourceLocation callLoc(const CallExpr &Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call))
    return Op->getOperator() == OO_LessLess ? Op->getOperatorLoc() : Op->getBeginLoc();
  if (const auto *ME = dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParenImpCasts()))
    return ME->getMemberLoc();
  return Call.getBeginLoc();
}

// Is the named bool parameter given as a constant true?
static bool boolArgTrue(const CallExpr &Call, const FunctionDecl *FD, llvm::StringRef Param,
                        ASTContext &Ctx) {
  for (unsigned I = 0; I < FD->getNumParams() && I < Call.getNumArgs(); ++I) {
    if (FD->getParamDecl(I)->getName() != Param)
      continue;
    const Expr *A = Call.getArg(I);
    if (isa<CXXDefaultArgExpr>(A))
      return false;
    bool V = false;
    if (!A->isValueDependent() && A->EvaluateAsBooleanCondition(V, Ctx))
      return V;
    return false;
  }
  return false;
}

static Effect make(EffectKind K, const CallExpr &Call, std::string What, std::string Detail = "") {
  Effect E;
  E.Kind = K;
  E.Site = &Call;
  E.Loc = callLoc(Call);
  E.What = std::move(What);
  E.Detail = std::move(Detail);
  return E;
}

std::optional<Effect> classifyCall(const CallExpr &Call, ASTContext &Ctx) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD)
    return std::nullopt;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getIdentifier())
      return std::nullopt;
    llvm::StringRef N = MD->getName();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (isTensorMethod(MD, N)) {
      if (N == "item")
        return make(EffectKind::HostSync, Call, "'.item()'", "copies the value to the host");
      if (N == "cpu")
        return isProvablyOnCpu(Obj) ? std::nullopt
                                    : std::optional<Effect>(make(EffectKind::HostSync, Call,
                                                                 "'.cpu()'", "copies the tensor to the host"));
      if (N == "tolist" || N == "equal" || N == "is_nonzero" || N == "nonzero" ||
          N == "masked_select" || N == "allclose")
        return isProvablyOnCpu(Obj)
                   ? std::nullopt
                   : std::optional<Effect>(make(EffectKind::HostSync, Call, "'." + N.str() + "()'",
                                                N == "nonzero" || N == "masked_select"
                                                    ? "reads the data back to size its result"
                                                    : "reads the data back to compute its answer"));
      if (N == "backward")
        return make(EffectKind::Backward, Call, "'.backward()'");
      if ((N == "zero_" || N == "reset") && (asTensorCall(Obj, "grad") || asTensorCall(Obj, "mutable_grad")))
        return make(EffectKind::ZeroGrad, Call, "'." + N.str() + "()' on a gradient");
      if (N == "cuda") {
        if (isProvablyPinned(Obj) && boolArgTrue(Call, MD, "non_blocking", Ctx))
          return std::nullopt;
        return make(EffectKind::Copy, Call, "'.cuda()'",
                    "is a blocking copy from host to device");
      }
      if (N == "to" && MD->getNumParams() > 0 && MC->getNumArgs() > 0) {
        QualType P0 = MD->getParamDecl(0)->getType();
        if (!isDeviceType(P0) && !isTensorOptionsType(P0) && !isTensorType(P0))
          return std::nullopt;  // to(ScalarType): a dtype conversion
        DeviceKind K = literalDeviceKind(MC->getArg(0));
        if (K == DeviceKind::Cpu)
          return isProvablyOnCpu(Obj) ? std::nullopt
                                      : std::optional<Effect>(make(EffectKind::HostSync, Call,
                                                                   "'.to(torch::kCPU)'",
                                                                   "copies the tensor to the host"));
        if (isTensorOptionsType(P0) && K == DeviceKind::Unknown && !namesDevice(MC->getArg(0)))
          return std::nullopt;  // options without a device: a dtype change
        bool NB = boolArgTrue(Call, MD, "non_blocking", Ctx);
        bool Pinned = isProvablyPinned(Obj);
        if (NB && Pinned)
          return std::nullopt;
        return make(EffectKind::Copy, Call, "'.to(" +
                                                std::string(K == DeviceKind::Cuda ? "torch::kCUDA" : "device") + ")'",
                    NB ? "has non_blocking=true on a source not known to be pinned, so the copy "
                         "from pageable memory still blocks the host"
                       : "is a blocking copy from host to device");
      }
      return std::nullopt;
    }
    const CXXRecordDecl *RD = MD->getParent();
    if (isOptimizerClass(RD)) {
      if (N == "step")
        return make(EffectKind::Step, Call, "'step()'");
      if (N == "zero_grad")
        return make(EffectKind::ZeroGrad, Call, "'zero_grad()'");
    }
    if (isModuleClass(RD) && inTorchNamespace(MD)) {
      if (N == "zero_grad")
        return make(EffectKind::ZeroGrad, Call, "'zero_grad()'");
      if (N == "to" && MC->getNumArgs() > 0 && literalDeviceKind(MC->getArg(0)) != DeviceKind::Cpu &&
          MD->getNumParams() > 0 && isDeviceType(MD->getParamDecl(0)->getType()))
        return make(EffectKind::ModuleCopy, Call, "'module->to()'");
    }
    return std::nullopt;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call)) {
    if (Op->getOperator() == OO_LessLess && Op->getNumArgs() == 2 && inTorchNamespace(FD) &&
        isTensorType(Op->getArg(1)->getType()) && !isProvablyOnCpu(Op->getArg(1)))
      return make(EffectKind::HostSync, Call, "streaming a tensor with '<<'",
                  "copies it to the host to print it");
    return std::nullopt;
  }
  if (isa<CXXMethodDecl>(FD) || !FD->getIdentifier() || !inTorchNamespace(FD))
    return std::nullopt;
  llvm::StringRef N = FD->getName();
  std::string Q = FD->getQualifiedNameAsString();
  if (Q == "torch::autograd::backward")
    return make(EffectKind::Backward, Call, "'torch::autograd::backward'");
  if (N == "nonzero" || N == "masked_select" || N == "allclose" || N == "equal" ||
      N == "is_nonzero") {
    if (Call.getNumArgs() > 0 && isProvablyOnCpu(Call.getArg(0)))
      return std::nullopt;
    return make(EffectKind::HostSync, Call, "'torch::" + N.str() + "'",
                N == "nonzero" || N == "masked_select" ? "reads the data back to size its result"
                                                       : "reads the data back to compute its answer");
  }
  return std::nullopt;
}

void CallSummaries::merge(Summary &Out, const ReachedEffect &E) {
  for (const ReachedEffect &O : Out)
    if (O.Op.Kind == E.Op.Kind)
      return;
  Out.push_back(E);
}

static bool inSystem(const Decl *D, ASTContext &Ctx) {
  return Ctx.getSourceManager().isInSystemHeader(D->getLocation());
}

std::vector<ReachedEffect> CallSummaries::effectsOfCall(const CallExpr &Call) {
  if (auto E = classifyCall(Call, Ctx))
    return {ReachedEffect{*E, {}}};
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD)
    return {};
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || inSystem(Def, Ctx))
    return {};
  bool Virtual = false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->isVirtual())
      if (const auto *ME = dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParenImpCasts()))
        Virtual = !ME->hasQualifier();
  std::string Name = FD->getNameAsString();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->getParent()->isLambda())
      Name = "lambda";
  std::vector<ReachedEffect> Out;
  for (ReachedEffect R : summaryOf(Def)) {
    R.Chain.insert(R.Chain.begin(), ChainLink{callLoc(Call), Name, Virtual});
    Out.push_back(std::move(R));
  }
  return Out;
}

void CallSummaries::collect(const Stmt *S, Summary &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (isPeriodicCondition(If->getCond())) {
      collect(If->getCond(), Out);
      Summary Inner;
      collect(If->getThen(), Inner);
      for (const ReachedEffect &E : Inner)
        if (E.Op.Kind != EffectKind::HostSync)
          merge(Out, E);
      collect(If->getElse(), Out);
      return;
    }
  }
  if (const auto *C = dyn_cast<CallExpr>(S))
    for (const ReachedEffect &E : effectsOfCall(*C))
      merge(Out, E);
  for (const Stmt *Child : S->children())
    collect(Child, Out);
}

std::vector<ReachedEffect> CallSummaries::effectsOfStmt(const Stmt *S) {
  Summary Out;
  collect(S, Out);
  return Out;
}

const CallSummaries::Summary &CallSummaries::summaryOf(const FunctionDecl *FD) {
  static const Summary Empty;
  auto It = Done.find(FD);
  if (It != Done.end())
    return It->second;
  if (!InProgress.insert(FD).second)
    return Empty;  // recursion: the outer computation covers it
  Summary S;
  collect(FD->getBody(), S);
  InProgress.erase(FD);
  return Done[FD] = std::move(S);
}

} // namespace torchtidy
