// How each use of a container of tensors (or of records) treats what it
// holds: walking up from a reference through the nodes that only wrap it,
// the first other node reads it, fills it, hands it on or lets it change
// unseen.
#include "analyses/PlaceContainerUse.h"
#include "analyses/TensorDevice.h"
#include "analyses/TorchTypes.h"
#include "analyses/VarValues.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace torchtidy::place {

namespace {
// Walks up from a reference to the container through the nodes that only
// wrap it, and judges what the first other node does with it.
class UseCheck {
public:
  UseCheck(ASTContext &Ctx, const FieldDecl *Member, int Depth, Question &Q)
      : Ctx(Ctx), Member(Member), Depth(Depth), Q(Q) {}

  bool containerUse(const Expr *Ref) {
    DynTypedNode P = parentOf(Ref);
    if (const auto *ME = P.get<MemberExpr>())
      return memberUse(ME);
    if (const auto *Op = P.get<CXXOperatorCallExpr>(); Op && Op->getArg(0) == Ref) {
      if (Op->getOperator() == OO_Subscript)
        return elementUse(Op);
      return Op->getOperator() == OO_Equal && containerHolds(Op->getArg(1), Member, Depth + 1, Q);
    }
    if (const auto *Var = P.get<VarDecl>())  // a copy, or a range-for's __range
      return byValueOrConst(Var->getType()) || rangeForReadsOnly(*Var);
    if (const auto *For = P.get<CXXForRangeStmt>())  // the range, whose elements stay
      return isUnchanged(*For->getLoopVariable());
    return P.get<ReturnStmt>() || passedReadOnly(P, Ref);
  }

private:
  // The node above E, skipping casts, parentheses, temporaries and copies.
  DynTypedNode parentOf(const Expr *&E) {
    for (;;) {
      auto Ps = Ctx.getParents(*E);
      for (const DynTypedNode &P : Ps)  // a range is also the init of __range
        if (P.get<CXXForRangeStmt>())
          return P;
      if (Ps.size() != 1)
        return DynTypedNode();
      const auto *PE = Ps[0].get<Expr>();
      const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(PE);
      if (!PE || !(isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
                       ExprWithCleanups>(PE) ||
                   (Copy && Copy->getNumArgs() == 1 &&
                    (Copy->getConstructor()->isCopyOrMoveConstructor()))))
        return Ps[0];
      E = PE;
    }
  }

  static bool byValueOrConst(QualType T) {
    return !T->isReferenceType() && !T->isPointerType()
               ? true
               : T->isReferenceType() && T.getNonReferenceType().isConstQualified();
  }

  bool memberUse(const MemberExpr *ME) {
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(parentNode(ME));
    const auto *MD = MC ? MC->getMethodDecl() : nullptr;
    if (!MD)
      return false;
    if (isNamedMethod(MD, {"push_back", "emplace_back"}))
      return MC->getNumArgs() == 1 &&
             (Member ? memberLives(MC->getArg(0), *Member, Depth + 1, Q)
                     : isTensorType(MC->getArg(0)->getType()) && lives(MC->getArg(0), Depth + 1, Q));
    if (isNamedMethod(MD, {"at", "front", "back"}))
      return elementUse(MC);
    if (isNamedMethod(MD, {"begin", "end"}))
      return iteratorUse(MC);
    return MD->isConst() || isNamedMethod(MD, {"clear", "reserve", "pop_back", "shrink_to_fit"});
  }

  const Stmt *parentNode(const Expr *E) { return parentOf(E).get<Stmt>(); }

  // An iterator into the container: compared, stepped or dereferenced to an
  // element; one kept in a local is judged by every use of the local.
  bool iteratorUse(const Expr *It) {
    DynTypedNode P = parentOf(It);
    if (const auto *Var = P.get<VarDecl>())
      return iteratorVarUse(*Var);
    const auto *Op = P.get<CXXOperatorCallExpr>();
    if (!Op)
      return false;
    switch (Op->getOperator()) {
    case OO_Star:
    case OO_Arrow:
      return Op->getArg(0) == It && elementUse(Op);
    case OO_PlusPlus:
    case OO_MinusMinus:
    case OO_EqualEqual:
    case OO_ExclaimEqual:
      return true;
    case OO_Equal: { // into a local (it = v.begin()), or the local given another
      if (Op->getArg(0) == It)
        return true;
      const auto *To = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
      const auto *Var = To ? dyn_cast<VarDecl>(To->getDecl()) : nullptr;
      return Var && iteratorVarUse(*Var);
    }
    default:
      return false;
    }
  }

  bool iteratorVarUse(const VarDecl &Var) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
    if (!Var.isLocalVarDecl() || Var.getType()->isReferenceType() || !FD || !FD->getBody())
      return false;
    if (Q.Open.count(&Var))
      return true; // judged already, up the chain of iterators
    Q.Open.insert(&Var);
    Refs R(Var);
    R.TraverseStmt(FD->getBody());
    bool Used = llvm::all_of(R.Found, [&](const Expr *D) { return iteratorUse(D); });
    Q.Open.erase(&Var);
    return Used;
  }

  // An element: written only with tensors living there, never bound where
  // it could be changed unseen.
  bool elementUse(const Expr *El) {
    DynTypedNode P = parentOf(El);
    if (Member)
      return recordElementUse(P, El);
    // A method operator of the tensor (t[j], t += x) keeps its device.
    if (const auto *Op = P.get<CXXOperatorCallExpr>();
        Op && Op->getArg(0) == El && isa_and_nonnull<CXXMethodDecl>(Op->getDirectCallee()))
      return Op->getOperator() != OO_Equal || lives(Op->getArg(1), Depth + 1, Q);
    if (const auto *Var = P.get<VarDecl>())
      return byValueOrConst(Var->getType()) || isUnchanged(*Var);
    if (P.get<MemberExpr>())
      return true;  // a method of the tensor: it keeps its device
    return passedReadOnly(P, El);
  }

  // A record element: its members read, copied, bound to a reference
  // under which Member is given only values living there.
  bool recordElementUse(const DynTypedNode &P, const Expr *El) {
    if (const auto *ME = P.get<MemberExpr>()) {
      if (ME->getMemberDecl() != Member)
        return true;
      UseCheck AsTensor(Ctx, nullptr, Depth, Q);
      return AsTensor.elementUse(ME);
    }
    if (const auto *Var = P.get<VarDecl>()) {
      std::vector<HeldValue> Assigned;
      return byValueOrConst(Var->getType()) ||
             (allMemberAssignedValues(*Var, *Member, Assigned) &&
              llvm::all_of(Assigned, [&](const HeldValue &H) {
                return H.Element < 0 && lives(H.E, Depth + 1, Q);
              }));
    }
    return passedReadOnly(P, El);
  }

  // An argument of a call or construction taken by value or const reference.
  bool passedReadOnly(const DynTypedNode &P, const Expr *Arg) {
    const FunctionDecl *FD = nullptr;
    llvm::ArrayRef<const Expr *> Args;
    unsigned Shift = 0;
    if (const auto *C = P.get<CallExpr>()) {
      FD = C->getDirectCallee();
      Args = {C->getArgs(), C->getNumArgs()};
      Shift = isa<CXXOperatorCallExpr>(C) && isa_and_nonnull<CXXMethodDecl>(FD) ? 1 : 0;
    } else if (const auto *C = P.get<CXXConstructExpr>()) {
      FD = C->getConstructor();
      Args = {C->getArgs(), C->getNumArgs()};
    }
    if (!FD)
      return false;
    // LibTorch reads a list of tensors (torch::cat's ITensorListRef forwards
    // it); torch::load writes into it.
    if (isTorchDecl(FD))
      return !(Args.size() > Shift && Args[Shift] == Arg && mayChangeArgument(FD, 0));
    for (unsigned I = Shift; I < Args.size(); ++I)
      if (Args[I] == Arg)
        return I - Shift < FD->getNumParams() &&
               (byValueOrConst(FD->getParamDecl(I - Shift)->getType()) ||
                fillsThere(*FD, I - Shift));
    return false;
  }

  // A function of the code that puts only tensors living there into the
  // container it takes by reference as parameter I.
  bool fillsThere(const FunctionDecl &FD, unsigned I) {
    const FunctionDecl *Def = FD.getDefinition();
    QualType T = FD.getParamDecl(I)->getType();
    return T->isLValueReferenceType() && holdsWhat(T, Member) && Def && Def->hasBody() &&
           !isTorchDecl(Def) && !Def->isInStdNamespace() &&
           keepsThere(*Def->getParamDecl(I), Member, Depth + 1, Q);
  }

  bool rangeForReadsOnly(const VarDecl &Range) {
    for (const DynTypedNode &P : Ctx.getParents(Range))
      if (const auto *DS = P.get<DeclStmt>(); DS && Range.isImplicit())
        for (const DynTypedNode &G : Ctx.getParents(*DS))
          if (const auto *For = G.get<CXXForRangeStmt>())
            return isUnchanged(*For->getLoopVariable());
    return false;
  }

  ASTContext &Ctx;
  const FieldDecl *Member;
  int Depth;
  Question &Q;
};
} // namespace

bool usesKeepThere(llvm::ArrayRef<const Expr *> Refs, ASTContext &Ctx, const FieldDecl *Member,
                   int Depth, Question &Q) {
  UseCheck Check(Ctx, Member, Depth, Q);
  return llvm::all_of(Refs, [&](const Expr *D) { return Check.containerUse(D); });
}

} // namespace torchtidy::place
