// Provenance through the tensor members of records: a struct a function
// returns ({img, label}, Sample(img, label), LibTorch's Example{data,
// target}) holds in each member what its initialiser or constructor put
// there, and so does a local such record, read member by member.
#include "analyses/PlaceFlow.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace torchtidy::place {

static const Expr *ignoreRecordWrappers(const Expr *E) {
  for (;;) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1 && C->getConstructor()->isCopyOrMoveConstructor())
      E = C->getArg(0);  // a copy of the record (or of a member's tensor)
    else if (const auto *Call = dyn_cast<CallExpr>(E); Call && Call->isCallToStdMove())
      E = Call->getArg(0);
    else
      return E;
  }
}

namespace {
// A use of a field in a constructor's body: it may be given another value.
class FieldUse : public RecursiveASTVisitor<FieldUse> {
public:
  explicit FieldUse(const FieldDecl &F) : F(F) {}
  bool VisitMemberExpr(MemberExpr *ME) {
    Found |= ME->getMemberDecl() == &F;
    return !Found;
  }
  const FieldDecl &F;
  bool Found = false;
};
} // namespace

// The argument of a construction that the constructor stores in F
// unchanged (F(std::move(p)), F{p}), when its body leaves F alone.
static const Expr *storedArgument(const CXXConstructExpr &C, const FieldDecl &F) {
  const FunctionDecl *Def = nullptr;
  if (!C.getConstructor()->hasBody(Def) || !Def)
    return nullptr;
  FieldUse Use(F);
  Use.TraverseStmt(Def->getBody());
  if (Use.Found)
    return nullptr;
  for (const CXXCtorInitializer *Init : cast<CXXConstructorDecl>(Def)->inits()) {
    if (Init->getMember() != &F)
      continue;
    const auto *DRE = dyn_cast<DeclRefExpr>(ignoreRecordWrappers(Init->getInit()));
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    unsigned I = P ? P->getFunctionScopeIndex() : C.getNumArgs();
    if (!P || P->getDeclContext() != Def || I >= C.getNumArgs())
      return nullptr;
    const auto *Default = dyn_cast<CXXDefaultArgExpr>(C.getArg(I));
    return Default ? Default->getExpr() : C.getArg(I);
  }
  return nullptr;
}

// LibTorch's Example(data, target), given one value per member: its bodies
// are skipped with the rest of LibTorch's headers, but its constructor
// stores each argument in the member of the same position.
static bool isExampleOf(const RecordDecl &RD, unsigned Values) {
  return isTorchDecl(&RD) && RD.getIdentifier() && RD.getName() == "Example" &&
         Values == static_cast<unsigned>(std::distance(RD.field_begin(), RD.field_end()));
}

static const Expr *exampleArgument(const CXXConstructExpr &C, const FieldDecl &F) {
  return isExampleOf(*C.getConstructor()->getParent(), C.getNumArgs()) ? C.getArg(F.getFieldIndex())
                                                                       : nullptr;
}

// An Example returned as {data, target} that Clang kept only as a recovery
// expression (one of the values did not compile, a header being missing).
static const Expr *recoveredExampleValue(const Expr *E, const FieldDecl &F) {
  const auto *R = dyn_cast<RecoveryExpr>(E);
  const auto *List = R && R->subExpressions().size() == 1
                         ? dyn_cast<InitListExpr>(R->subExpressions()[0])
                         : nullptr;
  return List && isExampleOf(*F.getParent(), List->getNumInits()) ? List->getInit(F.getFieldIndex())
                                                                   : nullptr;
}

// A record declared without a value (Batch b;) whose F is an undefined
// tensor until the code gives it one.
static bool startsUndefined(const VarDecl &V, const FieldDecl &F) {
  const auto *C = dyn_cast_or_null<CXXConstructExpr>(V.getInit());
  const CXXConstructorDecl *Ctor = C ? C->getConstructor() : nullptr;
  return Ctor && Ctor->isDefaultConstructor() && (Ctor->isImplicit() || Ctor->isDefaulted()) &&
         !F.hasInClassInitializer() && isTensorType(F.getType());
}

// F of a local record: F of each of its values (of each batch, for a
// range-for over a data loader or a container of records) and what V.F is
// given.
static bool localMemberLives(const VarDecl &V, const FieldDecl &F, int Depth, Question &Q) {
  std::vector<const Expr *> Values;
  std::vector<HeldValue> Assigned;
  if (Q.Open.count(&V) || !allMemberAssignedValues(V, F, Assigned) ||
      llvm::any_of(Assigned, [](const HeldValue &H) { return H.Element >= 0; }))
    return false;
  Q.Open.insert(&V);
  const Expr *Range = rangeOf(V);
  // A reference never changed as a whole (auto &b = batches[i]) holds its
  // initialiser; what is written to its F is in Assigned.
  if (V.getType()->isReferenceType() && !Range && V.getInit() && isUnchanged(V))
    Values.push_back(V.getInit());
  bool Given = (Range && isUnchanged(V) &&
                (loadedLives(*Range, F, Depth, Q) || recordsLive(Range, F, Depth + 1, Q))) ||
               ((!Values.empty() || allValuesOf(V, Values)) &&
                (Values.empty() ? startsUndefined(V, F) && !Assigned.empty()
                                : llvm::all_of(Values, [&](const Expr *R) {
                                    return memberLives(R, F, Depth + 1, Q);
                                  })));
  bool There = Given && llvm::all_of(Assigned, [&](const HeldValue &H) {
                 return valueLives(H.E, F.getType(), Depth + 1, Q);
               });
  Q.Open.erase(&V);
  return There;
}

bool memberLives(const Expr *Record, const FieldDecl &F, int Depth, Question &Q) {
  if (!Record || tooDeep(Depth, Q))
    return false;
  const Expr *E = ignoreRecordWrappers(Record);
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E))
    return memberLives(Cond->getTrueExpr(), F, Depth + 1, Q) &&
           memberLives(Cond->getFalseExpr(), F, Depth + 1, Q);
  if (const auto *List = dyn_cast<InitListExpr>(E)) {
    // An aggregate with bases lists them first.
    List = List->isSemanticForm() ? List : List->getSemanticForm();
    const auto *RD = List ? List->getType()->getAsCXXRecordDecl() : nullptr;
    unsigned I = F.getFieldIndex();
    return RD && RD == F.getParent() && RD->getNumBases() == 0 && I < List->getNumInits() &&
           valueLives(List->getInit(I), F.getType(), Depth + 1, Q);
  }
  if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
    const Expr *Arg = storedArgument(*C, F);
    return valueLives(Arg ? Arg : exampleArgument(*C, F), F.getType(), Depth + 1, Q);
  }
  if (const Expr *Container = recordContainer(E, F))
    return recordsLive(Container, F, Depth + 1, Q);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && !isa<ParmVarDecl>(V))
      return localMemberLives(*V, F, Depth, Q);
  if (const Expr *Value = recoveredExampleValue(E, F))
    return valueLives(Value, F.getType(), Depth + 1, Q);
  const auto *Call = dyn_cast<CallExpr>(E);
  return Call && returnsThere(*Call, Depth, Q, &F);
}

} // namespace torchtidy::place
