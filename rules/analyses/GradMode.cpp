#include "analyses/GradMode.h"

#include "analyses/TorchTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

using namespace clang;

namespace torchtidy {

static bool isFalseLiteral(const Expr *E) {
  const auto *B = dyn_cast<CXXBoolLiteralExpr>(E->IgnoreParenImpCasts());
  return B && !B->getValue();
}

// A local whose construction turns recording off for the rest of its block.
static bool isNoGradGuard(const VarDecl &V) {
  const CXXRecordDecl *RD = recordOf(V.getType());
  if (!RD || V.getType()->isReferenceType())
    return false;
  const auto *Init = dyn_cast_or_null<CXXConstructExpr>(V.getInit());
  bool FalseArg = Init && Init->getNumArgs() > 0 && isFalseLiteral(Init->getArg(0));
  if (isOrDerivesFrom(RD, "c10::NoGradGuard"))
    return true;
  if (isOrDerivesFrom(RD, "c10::InferenceMode"))
    return !FalseArg;
  return isOrDerivesFrom(RD, "c10::AutoGradMode") && FalseArg;
}

static bool turnsRecordingOff(const Stmt *S) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); V && isNoGradGuard(*V))
        return true;
    return false;
  }
  const auto *E = dyn_cast<Expr>(S);
  const auto *Call = E ? dyn_cast<CallExpr>(E->IgnoreImplicit()) : nullptr;
  const auto *MD = Call ? dyn_cast_or_null<CXXMethodDecl>(Call->getDirectCallee()) : nullptr;
  return MD && MD->getIdentifier() && MD->getName() == "set_enabled" &&
         MD->getParent()->getQualifiedNameAsString() == "c10::GradMode" &&
         Call->getNumArgs() == 1 && isFalseLiteral(Call->getArg(0));
}

bool isUnderNoGrad(const Stmt &S, ASTContext &Ctx) {
  const Stmt *Child = &S;
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (P.get<FunctionDecl>() || P.get<LambdaExpr>())
      return false;  // a guard in a caller is not seen here
    if (const auto *Block = P.get<CompoundStmt>()) {
      for (const Stmt *Before : Block->body()) {
        if (Before == Child)
          break;
        if (turnsRecordingOff(Before))
          return true;
      }
    }
    if (const Stmt *PS = P.get<Stmt>())
      Child = PS;
    Parents = Ctx.getParents(P);
  }
  return false;
}

} // namespace torchtidy
