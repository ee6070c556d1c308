#include "analyses/CallSummary.h"

#include "analyses/DependentCall.h"
#include "analyses/DeviceExpr.h"
#include "analyses/TensorPlace.h"
#include "analyses/LoopContext.h"
#include "analyses/ProgramSummary.h"
#include "analyses/SyncingOps.h"
#include "analyses/TensorDevice.h"
#include "analyses/TorchTypes.h"
#include "analyses/UnresolvedCall.h"
#include "analyses/VarValues.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace torchtidy {

SourceLocation callLoc(const CallExpr &Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call))
    return Op->getOperator() == OO_LessLess ? Op->getOperatorLoc() : Op->getBeginLoc();
  if (const auto *ME = dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParenImpCasts()))
    return ME->getMemberLoc();
  return Call.getBeginLoc();
}

static std::optional<bool> constantBool(const Expr *A, ASTContext &Ctx) {
  bool V = false;
  if (!A || A->isValueDependent() || !A->EvaluateAsBooleanCondition(V, Ctx))
    return std::nullopt;
  return V;
}

bool boolArgTrue(const CallExpr &Call, const FunctionDecl *FD, llvm::StringRef Param,
                 ASTContext &Ctx) {
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    if (FD->getParamDecl(I)->getName() == Param)
      return constantBool(argumentFor(Call, I), Ctx).value_or(false);
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

// A read-back of a tensor that may be on the GPU; none for tensors that are
// provably on the CPU already (only the first transfer is a sync).
static std::optional<Effect> hostRead(const CallExpr &Call, const SyncingOp &Op) {
  if (isProvablyOnCpu(Op.Read))
    return std::nullopt;
  return make(EffectKind::HostSync, Call, Op.What, Op.Detail);
}

// How a CPU destination of .to() is named in a message: the variable, or
// torch::kCPU for a literal.
static std::string spelledDevice(const Expr *Dest) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(innerDeviceExpr(Dest)->IgnoreParenImpCasts()))
    if (isa<VarDecl>(DRE->getDecl()) && !isTorchDecl(DRE->getDecl()))
      return DRE->getDecl()->getNameAsString();
  return "torch::kCPU";
}

// x.to(...) / x.cuda(): a copy to the device, a read back to the CPU, or
// neither (a dtype conversion, pinned memory with non_blocking=true).
// AssumeDevice: TensorOptions whose device is not known here are taken to
// carry one (the caller's, for a parameter).
static std::optional<Effect> classifyTransfer(const CXXMemberCallExpr &Call, ASTContext &Ctx,
                                              bool AssumeDevice = false) {
  const CXXMethodDecl *MD = Call.getMethodDecl();
  const Expr *Obj = Call.getImplicitObjectArgument();
  bool NonBlocking = boolArgTrue(Call, MD, "non_blocking", Ctx);
  if (NonBlocking && isProvablyPinned(Obj))
    return std::nullopt;
  const char *Blocking = "is a blocking copy from host to device";
  if (MD->getName() == "cuda")
    return make(EffectKind::Copy, Call, "'.cuda()'", Blocking);
  if (MD->getNumParams() == 0 || Call.getNumArgs() == 0)
    return std::nullopt;
  QualType P0 = MD->getParamDecl(0)->getType();
  if (!isDeviceType(P0) && !isTensorOptionsType(P0) && !isTensorType(P0))
    return std::nullopt;  // to(ScalarType): a dtype conversion
  const Expr *Dest = Call.getArg(0);
  DeviceKind K = literalDeviceKind(Dest);
  if (knownDeviceKind(Dest) == DeviceKind::Cpu)
    return hostRead(Call, {"'.to(" + spelledDevice(Dest) + ")'", syncingMethod("cpu")->Detail, Obj});
  if (isTensorOptionsType(P0) && K == DeviceKind::Unknown && !AssumeDevice &&
      !optionsCarryDevice(Dest))
    return std::nullopt;  // options without a device: a dtype change
  if (isProvablyOnDevice(Obj, Dest) || isPlacedOnDevice(Obj))
    return std::nullopt;  // already there, or a copy between devices
  return make(EffectKind::Copy, Call,
              K == DeviceKind::Cuda ? "'.to(torch::kCUDA)'" : "'.to(device)'",
              NonBlocking ? "has non_blocking=true on a source not known to be pinned, so the "
                            "copy from pageable memory still blocks the host"
                          : Blocking);
}

static std::optional<Effect> classifyTensorMethod(const CXXMemberCallExpr &Call, ASTContext &Ctx) {
  llvm::StringRef N = Call.getMethodDecl()->getName();
  const Expr *Obj = Call.getImplicitObjectArgument();
  if (N == "to" || N == "cuda")
    return classifyTransfer(Call, Ctx);
  if (N == "backward")
    return make(EffectKind::Backward, Call, "'.backward()'");
  if ((N == "zero_" || N == "reset") &&
      (asTensorMethodCall(Obj, "grad") || asTensorMethodCall(Obj, "mutable_grad")))
    return make(EffectKind::ZeroGrad, Call, "'." + N.str() + "()' on a gradient");
  return std::nullopt;
}

// Optimizer::step / zero_grad, Module::zero_grad / to(device).
static std::optional<Effect> classifyTrainingMethod(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *MD = Call.getMethodDecl();
  llvm::StringRef N = MD->getName();
  const CXXRecordDecl *RD = MD->getParent();
  if (isOptimizerClass(RD) && N == "step")
    return make(EffectKind::Step, Call, "'step()'");
  if ((isOptimizerClass(RD) || (isModuleClass(RD) && isTorchDecl(MD))) && N == "zero_grad")
    return make(EffectKind::ZeroGrad, Call, "'zero_grad()'");
  if (isModuleClass(RD) && isTorchDecl(MD) && N == "to" && Call.getNumArgs() > 0 &&
      MD->getNumParams() > 0 && isDeviceType(MD->getParamDecl(0)->getType()) &&
      knownDeviceKind(Call.getArg(0)) != DeviceKind::Cpu)
    return make(EffectKind::ModuleCopy, Call, "'module->to()'");
  return std::nullopt;
}

static std::optional<Effect> classifySpecificCall(const CallExpr &Call, ASTContext &Ctx) {
  if (auto Op = syncingCall(Call))
    return hostRead(Call, *Op);
  if (auto What = hostToDeviceWrite(Call))
    return make(EffectKind::Copy, Call, *What, "is a blocking copy from host to device");
  const FunctionDecl *FD = Call.getDirectCallee();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getIdentifier())
      return std::nullopt;
    if (isTorchDecl(MD) && MD->getName() == "synchronize")  // a stream's or an event's
      return make(EffectKind::DeviceSync, Call, "'synchronize()'");
    return isTensorMethod(MD, MD->getName()) ? classifyTensorMethod(*MC, Ctx)
                                             : classifyTrainingMethod(*MC);
  }
  if (isa<CXXOperatorCallExpr>(&Call))
    return std::nullopt;
  if (isa<CXXMethodDecl>(FD) || !FD->getIdentifier())
    return std::nullopt;
  llvm::StringRef N = FD->getName();
  // The CUDA runtime's C API, declared by cuda_runtime_api.h.
  if (FD->isExternC() && (N == "cudaDeviceSynchronize" || N == "cudaStreamSynchronize" ||
                          N == "cudaEventSynchronize"))
    return make(EffectKind::DeviceSync, Call, "'" + N.str() + "()'");
  if (!isTorchDecl(FD))
    return std::nullopt;
  std::string QName = FD->getQualifiedNameAsString();
  if (QName == "torch::autograd::backward")
    return make(EffectKind::Backward, Call, "'torch::autograd::backward'");
  if (QName == "c10::cuda::CUDACachingAllocator::emptyCache")
    return make(EffectKind::EmptyCache, Call, "'emptyCache()'");
  if (QName == "torch::cuda::synchronize" || QName == "c10::cuda::device_synchronize")
    return make(EffectKind::DeviceSync, Call, "'" + QName + "()'");
  return std::nullopt;
}

std::optional<Effect> classifyCall(const CallExpr &Call, ASTContext &Ctx) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD)
    return classifyDependentCall(Call, Ctx);
  if (auto E = classifySpecificCall(Call, Ctx))
    return E;
  // Work queued on the tensors' device: a LibTorch op that yields a tensor
  // (not an assignment), or the forward of a LibTorch module (a user
  // module's forward is summarised from its body instead).
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  // The cheap type test first: this runs for every LibTorch call summarised.
  if (isTorchDecl(FD) &&
      ((isTensorType(Call.getType()) && !(Op && Op->getOperator() == OO_Equal)) ||
       isModuleForwardCall(Call)))
    return make(EffectKind::TensorWork, Call, "tensor work");
  return std::nullopt;
}

void CallSummaries::merge(Summary &Out, const ReachedEffect &E) {
  auto Same = [&](const ReachedEffect &O) { return O.Op.Kind == E.Op.Kind && O.InLoop == E.InLoop; };
  for (const ReachedEffect &O : Out)
    if (Same(O) && (O.WhenParam < 0 || (O.WhenParam == E.WhenParam && O.When == E.When)))
      return;
  // One that runs whatever the flags says more than those under a flag.
  if (E.WhenParam < 0)
    llvm::erase_if(Out, Same);
  Out.push_back(E);
}

// The index of the parameter, never changed, of the function being
// summarised that E names (if (show), draw(img, show)), of the type When
// asks for; -1 otherwise.
int CallSummaries::conditionParam(const Expr *E, ParamCondition When) const {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreUnlessSpelledInSource()) : nullptr;
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || !Current || P->getDeclContext() != Current || !isUnchanged(*P))
    return -1;
  QualType T = P->getType();
  bool Typed = When == ParamCondition::Flag            ? T->isBooleanType()
               : When == ParamCondition::OptionsDevice ? isTensorOptionsType(T)
                                                       : isTensorType(T.getNonReferenceType());
  return Typed ? static_cast<int>(P->getFunctionScopeIndex()) : -1;
}

// x.to(opts) on the function's TensorOptions parameter: a copy when the
// caller's options carry a device (ImgData::to(const TensorOptions &)
// called as data.to(device)).
std::optional<ReachedEffect> CallSummaries::copyToOptionsParam(const CallExpr &Call) const {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !isTensorMethod(MD, "to") || MC->getNumArgs() == 0)
    return std::nullopt;
  int Param = conditionParam(MC->getArg(0), ParamCondition::OptionsDevice);
  std::optional<Effect> Copy =
      Param >= 0 ? classifyTransfer(*MC, Ctx, /*AssumeDevice=*/true) : std::nullopt;
  if (!Copy || Copy->Kind != EffectKind::Copy)
    return std::nullopt;
  ReachedEffect R{*Copy, {}};
  R.WhenParam = Param;
  R.When = ParamCondition::OptionsDevice;
  return R;
}

// The copy Call makes of the function's own tensor parameter (t.to(device),
// t.cuda()) copies only what the caller passes from the host: a caller
// whose argument is on the device already copies nothing.
void CallSummaries::conditionCopyOnParam(const CallExpr &Call,
                                         std::vector<ReachedEffect> &Effects) const {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
  if (!MC)
    return;
  int Param = conditionParam(MC->getImplicitObjectArgument(), ParamCondition::NotOnDevice);
  for (ReachedEffect &R : Effects)
    if (Param >= 0 && R.Op.Kind == EffectKind::Copy && R.Chain.empty() && R.Op.Site == &Call &&
        R.WhenParam < 0) {
      R.WhenParam = Param;
      R.When = ParamCondition::NotOnDevice;
    }
}

// Settles R's condition on its function's parameter with Call's argument:
// false when it does not run (a false flag, options with no device or the
// CPU, a tensor on the device already), kept on the caller's own parameter
// when the argument is one.
bool CallSummaries::keepsCondition(ReachedEffect &R, const CallExpr &Call) const {
  if (R.WhenParam < 0)
    return true;
  const Expr *Arg = argumentFor(Call, R.WhenParam);
  switch (R.When) {
  case ParamCondition::OptionsDevice:
    if (Arg && knownDeviceKind(Arg) != DeviceKind::Cpu &&
        (isDeviceType(Arg->getType()) || optionsCarryDevice(Arg))) {
      R.WhenParam = -1;
      R.When = ParamCondition::Flag;
      return true;
    }
    R.WhenParam = conditionParam(Arg, R.When);
    return R.WhenParam >= 0;
  case ParamCondition::NotOnDevice:
    if (Arg && isPlacedOnDevice(Arg))
      return false;
    R.WhenParam = conditionParam(Arg, R.When);
    if (R.WhenParam < 0)
      R.When = ParamCondition::Flag;
    return true;
  case ParamCondition::Flag:
    break;
  }
  std::optional<bool> Flag = constantBool(Arg, Ctx);
  if (Flag == false)
    return false;
  R.WhenParam = Flag ? -1 : conditionParam(Arg);
  return true;
}

static bool inSystem(const Decl *D, ASTContext &Ctx) {
  return Ctx.getSourceManager().isInSystemHeader(D->getLocation());
}

std::vector<ReachedEffect> CallSummaries::effectsOfCall(const CallExpr &Call) {
  if (auto E = classifyCall(Call, Ctx)) {
    std::vector<ReachedEffect> Out{ReachedEffect{*E, {}}};
    if (const FunctionDecl *Forward = holderForward(Call))
      for (const ReachedEffect &R : effectsOfCallee(Call, Forward))
        merge(Out, R);
    return Out;
  }
  const FunctionDecl *FD = calleeOf(Call);
  return FD ? effectsOfCallee(Call, FD) : std::vector<ReachedEffect>{};
}

// What calling FD at Call does: its body's summary here, else its entry
// in the program's table.
std::vector<ReachedEffect> CallSummaries::effectsOfCallee(const CallExpr &Call,
                                                          const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  const Summary *Callee = nullptr;
  if (FD->hasBody(Def) && Def) {
    if (inSystem(Def, Ctx))
      return {};
    Callee = &summaryOf(Def);
  } else if (Program && !inSystem(FD, Ctx)) {
    Callee = Program->lookup(usrOf(FD));
  }
  if (!Callee)
    return {};
  ChainLink Link{callLoc(Call), {}, FD->getNameAsString()};
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (MD->isVirtual())
      if (const auto *ME = dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParenImpCasts()))
        Link.Virtual = !ME->hasQualifier() && MD == Call.getDirectCallee();
    Link.Overriders = Link.Virtual && !Def;
    if (MD->getParent()->isLambda())
      Link.Callee = "lambda";
  }
  std::vector<ReachedEffect> Out;
  for (ReachedEffect R : *Callee) {
    if (!keepsCondition(R, Call))
      continue;
    R.Chain.insert(R.Chain.begin(), Link);
    Out.push_back(std::move(R));
  }
  return Out;
}

void CallSummaries::collect(const Stmt *S, bool InLoop, Summary &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (isPeriodicCondition(If->getCond())) {
      collect(If->getCond(), InLoop, Out);
      Summary Inner;
      collect(If->getThen(), InLoop, Inner);
      for (const ReachedEffect &E : Inner)
        if (E.Op.Kind != EffectKind::HostSync && E.Op.Kind != EffectKind::Copy &&
            E.Op.Kind != EffectKind::ModuleCopy)
          merge(Out, E);
      collect(If->getElse(), InLoop, Out);
      return;
    }
    if (int Flag = conditionParam(If->getCond()); Flag >= 0 && !If->getInit()) {
      Summary Inner;
      collect(If->getThen(), InLoop, Inner);
      for (ReachedEffect E : Inner) {
        if (E.WhenParam < 0)
          E.WhenParam = Flag;
        merge(Out, E);
      }
      collect(If->getElse(), InLoop, Out);
      return;
    }
  }
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    std::vector<ReachedEffect> Effects = effectsOfCall(*C);
    conditionCopyOnParam(*C, Effects);
    if (std::optional<ReachedEffect> Copy = copyToOptionsParam(*C))
      Effects.push_back(*Copy);
    for (ReachedEffect E : Effects) {
      E.InLoop |= InLoop;
      merge(Out, E);
    }
  }
  bool IsLoop = isLoop(S, Ctx);
  for (const Stmt *Child : S->children())
    if (!isDeadOperand(S, Child, Ctx))
      collect(Child, InLoop || (IsLoop && isPerIterationPart(S, Child)), Out);
}

std::vector<ReachedEffect> CallSummaries::effectsOfStmt(const Stmt *S) {
  Summary Out;
  collect(S, /*InLoop=*/false, Out);
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
  const FunctionDecl *Outer = Current;
  Current = FD;
  collect(FD->getBody(), /*InLoop=*/false, S);
  Current = Outer;
  InProgress.erase(FD);
  return Done[FD] = std::move(S);
}

} // namespace torchtidy
