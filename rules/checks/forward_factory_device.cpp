#include "checks/forward_factory_device.h"

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

void ForwardFactoryDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Factory = Result.Nodes.getNodeAs<CallExpr>("factory");
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!isTensorFactory(FD) || callNamesDevice(*Factory))
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
           "::forward' makes a CPU tensor whatever device the input is on; pass the input's "
           "options ('x.options()') or device, or use '" +
           (factoryReadsHostData(FD) ? std::string("torch::") + Name + "(...).to(x.device())"
                                     : std::string("torch::") + Name + "_like(x)") +
           "'");
}

} // namespace torchtidy
