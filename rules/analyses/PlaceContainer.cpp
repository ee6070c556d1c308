// Provenance through containers of tensors: a local
// std::vector<torch::Tensor> filled only with host tensors holds host
// tensors (only with tensors put on a device, such tensors), and so do its
// elements and torch::cat / torch::stack of it. A container of records
// (std::vector<Batch>) is followed the same way for one tensor member.
#include "analyses/PlaceFlow.h"
#include "analyses/TensorDevice.h"
#include "analyses/TorchTypes.h"
#include "analyses/UnresolvedCall.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace torchtidy::place {

static bool isMethod(const CXXMethodDecl *MD, std::initializer_list<llvm::StringRef> Names) {
  return MD && MD->getIdentifier() && llvm::is_contained(Names, MD->getName());
}

// The record type a standard container of records holds: std::vector<Batch>
// gives Batch; null for other types (a container of tensors too).
static const RecordDecl *heldRecord(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || Spec->getTemplateArgs().size() == 0 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return nullptr;
  const auto *RD = Spec->getTemplateArgs()[0].getAsType()->getAsRecordDecl();
  return RD && !isTensorType(Spec->getTemplateArgs()[0].getAsType()) ? RD : nullptr;
}

// What a container element holds: tensors (Member null), or records whose
// Member is followed.
static bool holdsWhat(QualType T, const FieldDecl *Member) {
  const RecordDecl *RD = Member ? heldRecord(T) : nullptr;
  return Member ? RD && RD->getCanonicalDecl() == Member->getParent()->getCanonicalDecl()
                : holdsTensors(T);
}

// The container E takes an element of, holding what Member says.
static const Expr *elementOf(const Expr *E, const FieldDecl *Member) {
  E = ignoreTensorWrappers(E);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    if (Op->getOperator() == OO_Subscript && !isTorchDecl(Op->getDirectCallee()) &&
        holdsWhat(Op->getArg(0)->getType(), Member))
      return Op->getArg(0);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (isMethod(MC->getMethodDecl(), {"at", "front", "back"}) &&
        holdsWhat(MC->getImplicitObjectArgument()->getType(), Member))
      return MC->getImplicitObjectArgument();
  return nullptr;
}

const Expr *elementContainer(const Expr *E) { return elementOf(E, nullptr); }

const Expr *recordContainer(const Expr *E, const FieldDecl &F) { return elementOf(E, &F); }

static bool containerHolds(const Expr *E, const FieldDecl *Member, int Depth, Question &Q);
static bool keepsThere(const VarDecl &V, const FieldDecl *Member, int Depth, Question &Q);

namespace {
// The references to one variable or field in a body.
class Refs : public RecursiveASTVisitor<Refs> {
public:
  explicit Refs(const ValueDecl &V) : V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (D->getDecl() == &V)
      Found.push_back(D);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *M) {
    if (M->getMemberDecl() == &V)
      Found.push_back(M);
    return true;
  }
  std::vector<const Expr *> Found;

private:
  const ValueDecl &V;
};

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
    if (isMethod(MD, {"push_back", "emplace_back"}))
      return MC->getNumArgs() == 1 &&
             (Member ? memberLives(MC->getArg(0), *Member, Depth + 1, Q)
                     : isTensorType(MC->getArg(0)->getType()) && lives(MC->getArg(0), Depth + 1, Q));
    if (isMethod(MD, {"at", "front", "back"}))
      return elementUse(MC);
    if (isMethod(MD, {"begin", "end"}))
      return iteratorUse(MC);
    return MD->isConst() || isMethod(MD, {"clear", "reserve", "pop_back", "shrink_to_fit"});
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
    if (isTorchDecl(FD))
      return true;  // LibTorch reads a list of tensors (torch::cat's ITensorListRef forwards it)
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

// Its initialiser: none, an empty or sized construction with values living
// there, a list of such tensors, or another such container.
static bool initThere(const Stmt *S, const FieldDecl *Member, int Depth, Question &Q) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (E && Member && E->getType()->getAsRecordDecl() == Member->getParent())
    return memberLives(E, *Member, Depth + 1, Q);
  if (E && !Member && isTensorType(E->getType()))
    return lives(E, Depth + 1, Q);
  if (E && holdsWhat(E->getType(), Member) && isa<DeclRefExpr, MemberExpr, CallExpr>(E))
    return containerHolds(E, Member, Depth + 1, Q);
  return !S || llvm::all_of(S->children(),
                            [&](const Stmt *C) { return initThere(C, Member, Depth, Q); });
}

// A local container (or a parameter, in its function) into which only
// tensors living at Q.Where go.
static bool keepsThere(const VarDecl &V, const FieldDecl *Member, int Depth, Question &Q) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
  if (tooDeep(Depth, Q) || !FD || !FD->getBody() || (!V.isLocalVarDecl() && !isa<ParmVarDecl>(V)) ||
      (V.getType()->isReferenceType() && !isa<ParmVarDecl>(V)) ||
      (!isa<ParmVarDecl>(V) && (lostInitializer(V) || !initThere(V.getInit(), Member, Depth, Q))))
    return false;
  Refs R(V);
  R.TraverseStmt(FD->getBody());
  UseCheck Check(V.getASTContext(), Member, Depth, Q);
  return llvm::all_of(R.Found, [&](const Expr *D) { return Check.containerUse(D); });
}

// A structured binding of a container a function of the code returns,
// into which its function puts only tensors living at Q.Where.
static bool bindingKeepsThere(const BindingDecl &B, int Depth, Question &Q) {
  const auto *DD = dyn_cast_or_null<DecompositionDecl>(B.getDecomposedDecl());
  const auto *FD = DD ? dyn_cast_or_null<FunctionDecl>(DD->getParentFunctionOrMethod()) : nullptr;
  if (!FD || !FD->getBody())
    return false;
  if (Q.Open.count(&B))
    return true;  // inside its own values
  Q.Open.insert(&B);
  Refs R(B);
  R.TraverseStmt(FD->getBody());
  UseCheck Check(B.getASTContext(), nullptr, Depth, Q);
  bool There = llvm::all_of(R.Found, [&](const Expr *D) { return Check.containerUse(D); });
  Q.Open.erase(&B);
  return There && bindingLives(B, Depth, Q);
}

// A private container field of a class whose methods are all in view, into
// which only tensors living at Q.Where go (its initialisers included).
static bool fieldKeepsThere(const FieldDecl &F, const FieldDecl *Member, int Depth, Question &Q) {
  if (tooDeep(Depth, Q) || !fieldInView(F) ||
      !initThere(F.getInClassInitializer(), Member, Depth, Q))
    return false;
  Refs R(F);
  bool InitsThere = true;
  visitFieldCode(
      F, [&](const Expr *Init) { InitsThere = InitsThere && initThere(Init, Member, Depth, Q); },
      [&](Stmt *S) { R.TraverseStmt(S); });
  if (!InitsThere)
    return false;
  UseCheck Check(F.getASTContext(), Member, Depth, Q);
  return llvm::all_of(R.Found, [&](const Expr *D) { return Check.containerUse(D); });
}

// Every element the container E holds lives at Q.Where: a tensor, or
// with Member, that member of a record.
static bool containerHolds(const Expr *E, const FieldDecl *Member, int Depth, Question &Q) {
  if (!E || tooDeep(Depth, Q))
    return false;
  E = E->IgnoreImplicit();
  if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() == 1)
    return containerHolds(C->getArg(0), Member, Depth, Q);  // a copy or a TensorList of it
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *B = dyn_cast<BindingDecl>(DRE->getDecl()))
      return !Member && holdsTensors(B->getType()) && bindingKeepsThere(*B, Depth, Q);
    const auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V || !holdsWhat(V->getType(), Member) || (Member && isa<ParmVarDecl>(V)))
      return false;
    if (Q.Open.count(V))
      return true;  // inside its own values
    Q.Open.insert(V);
    bool There = keepsThere(*V, Member, Depth, Q);
    Q.Open.erase(V);
    // Its callers are asked with it closed: open, it would prove itself.
    return There && (!isa<ParmVarDecl>(V) || paramLives(*cast<ParmVarDecl>(V), Depth + 1, Q));
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!F || !holdsWhat(F->getType(), Member))
      return false;
    if (!Member)
      return remembered(*F, Q, [&] { return fieldKeepsThere(*F, nullptr, Depth, Q); });
    if (Q.Open.count(F))
      return true;
    Q.Open.insert(F);
    bool There = fieldKeepsThere(*F, Member, Depth, Q);
    Q.Open.erase(F);
    return There;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (!Member)
      return returnsThere(*Call, Depth, Q);
    // A function of the code that returns such a container (a loader's
    // batches(), returning its private field).
    const FunctionDecl *FD = Call->getDirectCallee();
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    return Def && !isTorchDecl(Def) && !Def->isInStdNamespace() &&
           everyReturn(*Def, [&](const Expr *R) { return containerHolds(R, Member, Depth + 1, Q); });
  }
  return false;
}

bool containerLives(const Expr *E, int Depth, Question &Q) {
  return containerHolds(E, nullptr, Depth, Q);
}

bool recordsLive(const Expr *E, const FieldDecl &F, int Depth, Question &Q) {
  return containerHolds(E, &F, Depth, Q);
}

} // namespace torchtidy::place
