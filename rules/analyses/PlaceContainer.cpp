// Provenance through containers of tensors: a local
// std::vector<torch::Tensor> filled only with host tensors holds host
// tensors (only with tensors put on a device, such tensors), and so do its
// elements and torch::cat / torch::stack of it. A container of records
// (std::vector<Batch>) is followed the same way for one tensor member.
#include "analyses/PlaceContainerUse.h"
#include "analyses/PlaceFlow.h"
#include "analyses/TensorDevice.h"
#include "analyses/TorchTypes.h"
#include "analyses/UnresolvedCall.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy::place {

bool isNamedMethod(const CXXMethodDecl *MD, std::initializer_list<llvm::StringRef> Names) {
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

bool holdsWhat(QualType T, const FieldDecl *Member) {
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
    if (isNamedMethod(MC->getMethodDecl(), {"at", "front", "back"}) &&
        holdsWhat(MC->getImplicitObjectArgument()->getType(), Member))
      return MC->getImplicitObjectArgument();
  return nullptr;
}

const Expr *elementContainer(const Expr *E) { return elementOf(E, nullptr); }

const Expr *recordContainer(const Expr *E, const FieldDecl &F) { return elementOf(E, &F); }


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

bool keepsThere(const VarDecl &V, const FieldDecl *Member, int Depth, Question &Q) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
  if (tooDeep(Depth, Q) || !FD || !FD->getBody() || (!V.isLocalVarDecl() && !isa<ParmVarDecl>(V)) ||
      (V.getType()->isReferenceType() && !isa<ParmVarDecl>(V)) ||
      (!isa<ParmVarDecl>(V) && (lostInitializer(V) || !initThere(V.getInit(), Member, Depth, Q))))
    return false;
  Refs R(V);
  R.TraverseStmt(FD->getBody());
  return usesKeepThere(R.Found, V.getASTContext(), Member, Depth, Q);
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
  bool There = usesKeepThere(R.Found, B.getASTContext(), nullptr, Depth, Q);
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
  return usesKeepThere(R.Found, F.getASTContext(), Member, Depth, Q);
}

bool containerHolds(const Expr *E, const FieldDecl *Member, int Depth, Question &Q) {
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
