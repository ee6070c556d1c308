#include "checks/forward_factory_device.h"

#include "analyses/TensorDevice.h"
#include "analyses/TensorFactory.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo ForwardFactoryDeviceCheck::Info = {
    "torch-forward-factory-device",
    "tensor factory in a module's forward() that does not take the input's device",
    Level::Warning,
    Precision::Medium,
    {"correctness", "performance"},
    {}};

void ForwardFactoryDeviceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(callee(functionDecl().bind("fn"))).bind("factory"), this);
}

// The factory's result goes straight into .to(...) or .cuda(): it is moved
// (torch-create-then-move's business), not left on the CPU.
static bool isMovedAtOnce(const CallExpr &Factory, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(Factory);
  while (!Parents.empty() && (Parents[0].get<ImplicitCastExpr>() ||
                              Parents[0].get<MaterializeTemporaryExpr>() ||
                              Parents[0].get<CXXBindTemporaryExpr>()))
    Parents = Ctx.getParents(Parents[0]);
  if (Parents.empty())
    return false;
  const auto *Member = Parents[0].get<MemberExpr>();
  if (!Member)
    return false;
  const auto *MD = llvm::dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
  return isTensorMethod(MD, "to") || isTensorMethod(MD, "cuda");
}

// Some options argument sets a device, also through a local variable.
static bool optionsSetDevice(const CallExpr &Factory) {
  return llvm::any_of(Factory.arguments(), [](const Expr *Arg) {
    return !isa<CXXDefaultArgExpr>(Arg) && isTensorOptionsType(Arg->getType()) &&
           optionsCarryDevice(Arg);
  });
}

// Where the tensor is made: on the CPU, or, with options the code does not
// show (a global's, a field's, a getter's), wherever those options say.
static std::string whereMade(const CallExpr &Factory) {
  std::string Name;
  const Expr *Opts = opaqueOptionsArg(Factory);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Opts)) {
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !V->isLocalVarDecl())  // a local's initialiser is seen: no device there
      Name = DRE->getDecl()->getNameAsString();
  } else if (const auto *ME = dyn_cast_or_null<MemberExpr>(Opts)) {
    Name = ME->getMemberDecl()->getNameAsString();
  } else if (const auto *Call = dyn_cast_or_null<CallExpr>(Opts)) {
    Name = Call->getDirectCallee()->getNameAsString() + "()";
  }
  if (Name.empty())
    return "makes a CPU tensor whatever device the input is on";
  return "makes its tensor on the device that the options '" + Name +
         "' name, not on the input's";
}

void ForwardFactoryDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Factory = Result.Nodes.getNodeAs<CallExpr>("factory");
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!isTensorFactory(FD) || callNamesDevice(*Factory) || optionsSetDevice(*Factory))
    return;
  ASTContext &Ctx = *Result.Context;
  const auto *Method = llvm::dyn_cast_or_null<CXXMethodDecl>(enclosingFunction(*Factory, Ctx));
  // A lambda in forward() runs as part of it.
  while (Method && Method->getParent()->isLambda())
    Method = llvm::dyn_cast<CXXMethodDecl>(Method->getParent()->getDeclContext());
  if (!Method || Method->getName() != "forward" || !isModuleClass(Method->getParent()) ||
      isMovedAtOnce(*Factory, Ctx))
    return;
  const auto *Ref = llvm::dyn_cast<DeclRefExpr>(Factory->getCallee()->IgnoreImplicit());
  SourceLocation Loc = Ref ? Ref->getLocation() : Factory->getBeginLoc();
  std::string Name = FD->getNameAsString();
  diag(*Result.SourceManager, Loc,
       "'" + Name + "' in '" + Method->getParent()->getNameAsString() +
           "::forward' " + whereMade(*Factory) + "; pass the input's "
           "options ('x.options()') or device, or use '" +
           (factoryReadsHostData(FD) ? std::string("torch::") + Name + "(...).to(x.device())"
                                     : std::string("torch::") + Name + "_like(x)") +
           "'");
}

} // namespace torchtidy
