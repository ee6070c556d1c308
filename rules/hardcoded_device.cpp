#include "hardcoded_device.h"

#include "DeviceExpr.h"
#include "TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo HardcodedDeviceCheck::Info = {
    "torch-hardcoded-device",
    "CUDA device fixed in code (.cuda(), kCUDA, Device(\"cuda:1\")) where it should follow one device variable",
    Level::Warning,
    Precision::High,
    {"portability", "correctness"},
    {}};

void HardcodedDeviceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(cxxMemberCallExpr(matchers::callsTensorMethod({"cuda"})).bind("cuda"), this);
  Finder->addMatcher(
      declRefExpr(to(valueDecl(anyOf(varDecl(hasName("::c10::kCUDA")),
                                     enumConstantDecl(hasName("::c10::DeviceType::CUDA"))))))
          .bind("leaf"),
      this);
  Finder->addMatcher(
      cxxConstructExpr(hasType(cxxRecordDecl(hasName("::c10::Device"))), argumentCountIs(1))
          .bind("leaf"),
      this);
}

void HardcodedDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("cuda"))
    checkCudaCall(*Call, *Result.Context);
  else if (const auto *Leaf = Result.Nodes.getNodeAs<Expr>("leaf"))
    checkLiteral(*Leaf, *Result.Context);
}

// The call of Module::register_parameter / register_buffer whose argument
// holds the statement, if any.
static bool isInRegisterCall(const Stmt &S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *Call = P.get<CXXMemberCallExpr>()) {
      const CXXMethodDecl *MD = Call->getMethodDecl();
      if (MD && (MD->getName() == "register_parameter" || MD->getName() == "register_buffer") &&
          isModuleClass(MD->getParent()))
        return true;
    }
    if (P.get<Decl>())
      return false;
    Parents = Ctx.getParents(P);
  }
  return false;
}

void HardcodedDeviceCheck::checkCudaCall(const CXXMemberCallExpr &Call, ASTContext &Ctx) {
  const CXXRecordDecl *Module = enclosingModuleClass(Call, Ctx);
  if (!Module && !isInRegisterCall(Call, Ctx))
    return;
  const auto *Member = llvm::dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParens());
  if (!Member)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = Member->getMemberLoc();
  std::string Where = Module ? "module '" + Module->getNameAsString() + "'" : "a registered parameter";
  auto D = diag(SM, Loc,
                "'.cuda()' in " + Where +
                    " puts the tensor on the current CUDA device (cuda:0) and it stays there when "
                    "the module is moved with 'to(device)'; use '.to(<device>)' with the module's device");
  std::vector<std::string> Devices = visibleDeviceVariables(Call, Ctx);
  if (Devices.size() == 1 && !Loc.isMacroID() && !Call.getRParenLoc().isMacroID())
    D.fix(CharSourceRange::getTokenRange(Loc, Call.getRParenLoc()), "to(" + Devices[0] + ")");
}

// Wrappers that pass a device value on unchanged.
static bool isDeviceWrapper(const DynTypedNode &N) {
  if (N.get<ImplicitCastExpr>() || N.get<MaterializeTemporaryExpr>() ||
      N.get<CXXBindTemporaryExpr>() || N.get<CXXFunctionalCastExpr>() || N.get<ParenExpr>() ||
      N.get<ExprWithCleanups>())
    return true;
  if (const auto *C = N.get<CXXConstructExpr>())
    return isDeviceType(C->getType()) || isTensorOptionsType(C->getType());
  return false;
}

// Calls that take a device to make or move tensors: anything returning a
// tensor (factories, .to()), TensorOptions::device and torch::device().
static bool consumesDevice(const CallExpr &Call) {
  if (isTensorType(Call.getType()))
    return true;
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD)
    return false;
  std::string Name = FD->getQualifiedNameAsString();
  return Name == "c10::TensorOptions::device" || Name == "c10::device";
}

void HardcodedDeviceCheck::checkLiteral(const Expr &Leaf, ASTContext &Ctx) {
  if (literalDeviceKind(&Leaf) != DeviceKind::Cuda)
    return;
  // A Device built from kCUDA is reported through the kCUDA leaf.
  if (const auto *C = llvm::dyn_cast<CXXConstructExpr>(&Leaf); C && deviceLiteralSite(C) != C)
    return;
  const Expr *Top = &Leaf;
  DynTypedNodeList Parents = Ctx.getParents(Leaf);
  while (!Parents.empty() && isDeviceWrapper(Parents[0])) {
    Top = Parents[0].get<Expr>();
    Parents = Ctx.getParents(Parents[0]);
  }
  if (Parents.empty())
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = Top->getBeginLoc();
  std::string Spelling =
      Lexer::getSourceText(CharSourceRange::getTokenRange(Top->getSourceRange()), SM,
                           Ctx.getLangOpts())
          .str();
  const DynTypedNode &Consumer = Parents[0];

  if (const auto *Var = Consumer.get<VarDecl>()) {
    if (!isDeviceType(Var->getType()) || isGuardedByCudaTest(Leaf, Ctx))
      return;
    Loc = Var->getLocation();
    diag(SM, Loc, "device '" + Var->getNameAsString() +
                      "' is fixed to CUDA with no CPU fallback; the program fails on a machine "
                      "without a GPU")
        .note(Loc, "select it once: 'torch::Device " + Var->getNameAsString() +
                       "(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU)'");
    return;
  }
  const auto *Call = Consumer.get<CallExpr>();
  if (!Call || llvm::isa<CXXOperatorCallExpr>(Call) || !consumesDevice(*Call))
    return;
  const CXXRecordDecl *Module = enclosingModuleClass(Leaf, Ctx);
  if (!Module)
    return;
  diag(SM, Loc, "device '" + Spelling + "' is hard-coded in module '" + Module->getNameAsString() +
                    "'; tensors made here ignore 'module->to(device)'; take the device from an "
                    "input ('x.device()') or a parameter");
}

} // namespace torchtidy
