#include "analyses/ReachingValue.h"

#include "analyses/VarValues.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;

namespace torchtidy {

// The statements from S down to Target, both included; false when Target
// is not inside S.
static bool pathTo(const Stmt *S, const Stmt *Target, llvm::SmallVectorImpl<const Stmt *> &Path) {
  if (!S)
    return false;
  Path.push_back(S);
  if (S == Target)
    return true;
  for (const Stmt *C : S->children())
    if (pathTo(C, Target, Path))
      return true;
  Path.pop_back();
  return false;
}

static bool hasGoto(const Stmt *S) {
  if (!S || isa<GotoStmt, IndirectGotoStmt>(S))
    return S != nullptr;
  return llvm::any_of(S->children(), hasGoto);
}

bool walkBack(const Stmt &At, const FunctionDecl &FD, llvm::function_ref<Step(const Stmt &)> Earlier,
              llvm::function_ref<bool(const Stmt &)> Spoils) {
  llvm::SmallVector<const Stmt *, 16> Path;
  if (!pathTo(FD.getBody(), &At, Path) || hasGoto(FD.getBody()))
    return false;
  for (size_t I = Path.size() - 1; I-- > 0;) {
    const Stmt *P = Path[I], *Cur = Path[I + 1];
    if (isa<LambdaExpr>(P))
      return false;
    if (const auto *Block = dyn_cast<CompoundStmt>(P)) {
      if (isa<SwitchCase, LabelStmt>(Cur))
        return false;
      auto Body = Block->body();
      for (auto It = llvm::find(Body, Cur); It != Body.begin();) {
        const Stmt *S = *--It;
        Step Judged = isa<SwitchCase, LabelStmt>(S) ? Step::Stop : Earlier(*S);
        if (Judged != Step::Next)
          return Judged == Step::Found;
      }
      continue;
    }
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P) ? Spoils(*P)
        : llvm::any_of(P->children(), [&](const Stmt *C) { return C && C != Cur && Spoils(*C); }))
      return false;
  }
  return false;
}

// x in v = x, as a statement of its own.
static const Expr *assignedBy(const Stmt &S, const VarDecl &V) {
  const auto *E = dyn_cast<Expr>(&S);
  if (!E)
    return nullptr;
  E = E->IgnoreImplicit();
  auto Names = [&](const Expr *L) {
    const auto *DRE = dyn_cast<DeclRefExpr>(L->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == &V;
  };
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->getOpcode() == BO_Assign)
    return Names(B->getLHS()) ? B->getRHS() : nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
    return Names(Op->getArg(0)) ? Op->getArg(1) : nullptr;
  return nullptr;
}

const Expr *reachingValue(const DeclRefExpr &Use) {
  const auto *V = dyn_cast<VarDecl>(Use.getDecl());
  const auto *FD = V ? dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()) : nullptr;
  if (!FD || !V->isLocalVarDeclOrParm())
    return nullptr;
  const Expr *Value = nullptr;
  auto Earlier = [&](const Stmt &S) {
    if (const auto *DS = dyn_cast<DeclStmt>(&S); DS && llvm::is_contained(DS->decls(), V))
      return (Value = givenInit(*V)) ? Step::Found : Step::Stop;
    if (const Expr *X = assignedBy(S, *V))
      return !changes(*X, *V) && (Value = X) ? Step::Found : Step::Stop;
    return changes(S, *V) ? Step::Stop : Step::Next;
  };
  auto Spoils = [&](const Stmt &S) { return changes(S, *V); };
  return walkBack(Use, *FD, Earlier, Spoils) ? Value : nullptr;
}

} // namespace torchtidy
