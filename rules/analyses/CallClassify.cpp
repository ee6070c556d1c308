// What one call is on its own: the LibTorch operation it makes (a host
// read, a copy to the device, backward, a step, ...), before summaries
// compose what calls of the analysed code do.
#include "analyses/CallClassify.h"

#include "analyses/DependentCall.h"
#include "analyses/DeviceOrigin.h"
#include "analyses/DeviceExpr.h"
#include "analyses/LoopContext.h"
#include "analyses/TensorPlace.h"
#include "analyses/SyncingOps.h"
#include "analyses/TensorDevice.h"
#include "analyses/TensorFactory.h"
#include "analyses/TorchTypes.h"
#include "analyses/UnresolvedCall.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy {

SourceLocation callLoc(const CallExpr &Call) {
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call))
    return Op->getOperator() == OO_LessLess ? Op->getOperatorLoc() : Op->getBeginLoc();
  if (const auto *ME = dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParenImpCasts()))
    return ME->getMemberLoc();
  return Call.getBeginLoc();
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

std::optional<Effect> classifyTransfer(const CXXMemberCallExpr &Call, ASTContext &Ctx,
                                       bool AssumeDevice) {
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

// torch::tensor(values, options) builds the tensor on the host and copies it
// to the options' device (TensorDataContainer::convert_to_tensor), as
// .to(options) would; a device the options do not set leaves it there.
static std::optional<Effect> valuesToDevice(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!isTensorFactory(FD) || FD->getName() != "tensor" || explicitArgCount(Call) < 2)
    return std::nullopt;
  const Expr *Opts = Call.getArg(1);
  if (!isTensorOptionsType(Opts->getType()) || knownDeviceKind(Opts) == DeviceKind::Cpu ||
      (literalDeviceKind(Opts) == DeviceKind::Unknown && !optionsCarryDevice(Opts)))
    return std::nullopt;
  return make(EffectKind::Copy, Call, "'torch::tensor(values, options)'",
              "builds the tensor on the host and makes a blocking copy of it to the device");
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
  if (auto E = valuesToDevice(Call))
    return E;
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

} // namespace torchtidy
