#include "checks/create_then_move.h"

#include "analyses/DeviceExpr.h"
#include "analyses/TensorFactory.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo CreateThenMoveCheck::Info = {
    "torch-create-then-move",
    "tensor factory run on the CPU and copied to the device at once; create it on the device",
    Level::Warning,
    Precision::High,
    {"performance"},
    {},
    /*NeedsCuda=*/false,
    RuntimeSignal::Transfer};

void CreateThenMoveCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      cxxMemberCallExpr(matchers::callsTensorMethod({"to", "cuda"}),
                        on(ignoringImplicit(callExpr().bind("factory"))))
          .bind("move"),
      this);
}

void CreateThenMoveCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Move = Result.Nodes.getNodeAs<CXXMemberCallExpr>("move");
  const auto *Factory = Result.Nodes.getNodeAs<CallExpr>("factory");
  const FunctionDecl *FD = Factory->getDirectCallee();
  if (!isTensorFactory(FD) || factoryReadsHostData(FD) || callNamesDevice(*Factory))
    return;
  bool IsCuda = Move->getMethodDecl()->getName() == "cuda";
  if (!IsCuda) {
    // Only a move to a device: not .to(kFloat), .to(other_tensor), or .to(kCPU).
    if (Move->getNumArgs() == 0 || !callNamesDevice(*Move) || isTensorType(Move->getArg(0)->getType()) ||
        literalDeviceKind(Move->getArg(0)) == DeviceKind::Cpu)
      return;
  }
  const SourceManager &SM = *Result.SourceManager;
  const auto *Member = llvm::cast<MemberExpr>(Move->getCallee()->IgnoreParens());
  std::string Name = FD->getNameAsString();
  auto D = diag(SM, Member->getMemberLoc(),
                "'" + Name + "' fills the tensor on the CPU and '." +
                    Move->getMethodDecl()->getNameAsString() +
                    "()' then copies it to the device; create it there: pass "
                    "'torch::TensorOptions().device(...)' to '" + Name + "'");
  // The fix-it passes the options as the factory's next argument: only when
  // that parameter is its TensorOptions, left to its default.
  unsigned Given = explicitArgCount(*Factory);
  if (IsCuda || Given == 0 || Given >= FD->getNumParams() ||
      !isTensorOptionsType(FD->getParamDecl(Given)->getType()) || explicitArgCount(*Move) != 1 ||
      Move->getBeginLoc().isMacroID() || Move->getEndLoc().isMacroID())
    return;
  StringRef Device = Lexer::getSourceText(
      CharSourceRange::getTokenRange(Move->getArg(0)->getSourceRange()), SM,
      Result.Context->getLangOpts());
  D.fix(CharSourceRange::getCharRange(Factory->getRParenLoc(), Factory->getRParenLoc()),
        ", torch::TensorOptions().device(" + Device.str() + ")");
  D.fix(CharSourceRange::getTokenRange(Factory->getRParenLoc().getLocWithOffset(1),
                                       Move->getRParenLoc()),
        "");
}

} // namespace torchtidy
