#include "analyses/ReachingValue.h"

#include "analyses/UnresolvedCall.h"
#include "analyses/VarValues.h"

#include "clang/AST/Decl.h"
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

// x in v = x, as a statement of its own.
static const Expr *assignedBy(const Stmt *S, const VarDecl &V) {
  const auto *E = dyn_cast<Expr>(S);
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

// The value a statement before the read gives V, scanning back from Last
// (excluded) in Block; Stop is set when a statement changes V in another
// way or control may enter past it (a label).
static const Expr *givenInBlock(const CompoundStmt &Block, const Stmt *Last, const VarDecl &V,
                                bool &Stop) {
  auto Body = Block.body();
  auto At = llvm::find(Body, Last);
  if (isa<SwitchCase, LabelStmt>(Last))
    return Stop = true, nullptr;
  while (At != Body.begin()) {
    const Stmt *S = *--At;
    if (const auto *DS = dyn_cast<DeclStmt>(S); DS && llvm::is_contained(DS->decls(), &V)) {
      Stop = true;
      const Expr *Init = V.getInit();
      bool Defined = Init && !lostInitializer(V) &&
                     !(isa<CXXConstructExpr>(Init) && cast<CXXConstructExpr>(Init)->getNumArgs() == 0);
      return Defined ? Init : nullptr;
    }
    if (const Expr *X = assignedBy(S, V)) {
      Stop = true;
      return changes(*X, V) ? nullptr : X;
    }
    if (isa<SwitchCase, LabelStmt>(S) || changes(*S, V))
      return Stop = true, nullptr;
  }
  return nullptr;
}

const Expr *reachingValue(const DeclRefExpr &Use) {
  const auto *V = dyn_cast<VarDecl>(Use.getDecl());
  const auto *FD = V ? dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()) : nullptr;
  llvm::SmallVector<const Stmt *, 16> Path;
  if (!FD || !V->isLocalVarDeclOrParm() || !pathTo(FD->getBody(), &Use, Path) ||
      hasGoto(FD->getBody()))
    return nullptr;
  for (size_t I = Path.size() - 1; I-- > 0;) {
    const Stmt *P = Path[I], *Cur = Path[I + 1];
    if (isa<LambdaExpr>(P))
      return nullptr;
    if (const auto *Block = dyn_cast<CompoundStmt>(P)) {
      bool Stop = false;
      const Expr *X = givenInBlock(*Block, Cur, *V, Stop);
      if (Stop)
        return X;
      continue;
    }
    // A loop runs its later statements before Use too; elsewhere only the
    // other parts of the statement may come first.
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P) ? changes(*P, *V)
        : llvm::any_of(P->children(),
                       [&](const Stmt *C) { return C && C != Cur && changes(*C, *V); }))
      return nullptr;
  }
  return nullptr;
}

} // namespace torchtidy
