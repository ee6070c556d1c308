#include "analyses/VarValues.h"

#include "analyses/TorchTypes.h"
#include "analyses/UnresolvedCall.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace torchtidy {

static bool isTorchFunction(const FunctionDecl *FD, llvm::StringRef Name) {
  return FD && FD->getIdentifier() && FD->getName() == Name && isTorchDecl(FD) &&
         FD->getQualifiedNameAsString() == ("torch::" + Name).str();
}

namespace {
// Finds a change of one variable after its initialisation: an assignment,
// ++/--, its address taken, a non-const method called on it, a non-const
// reference bound to it, or passing it to a non-const reference parameter
// of a function that is not LibTorch's (LibTorch's forwarding setters, such
// as TensorOptions::device(Args&&...), only read it). Lambda bodies are
// part of the search: a capture by reference changes nothing by itself.
class ChangeFinder : public RecursiveASTVisitor<ChangeFinder> {
public:
  // Assigned: where plain assignments (v = x, std::tie(a, v) = f()) go
  // instead of counting as changes; null to count them. Of: the local
  // whose member V (a field) is looked for; null for a variable, or for a
  // field of any object.
  ChangeFinder(const ValueDecl &V, std::vector<HeldValue> *Assigned = nullptr,
               const VarDecl *Of = nullptr)
      : V(V), Assigned(Assigned), Of(Of) {}
  bool Found = false;
  bool Loaded = false, Saved = false;
  // Whether the values collected are not all the variable holds.
  bool changedOtherwise() const { return Found || (Loaded && !Saved); }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (Assigned && B->getOpcode() == BO_Assign && names(B->getLHS()))
      Assigned->push_back({B->getRHS()});
    else
      Found |= B->isAssignmentOp() && names(B->getLHS());
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    Found |= (U->getOpcode() == UO_AddrOf || U->isIncrementDecrementOp()) && names(U->getSubExpr());
    return !Found;
  }
  bool VisitVarDecl(VarDecl *D) {
    QualType T = D->getType();
    Found |= T->isReferenceType() && !T.getNonReferenceType().isConstQualified() && D->getInit() &&
             names(D->getInit());
    return !Found;
  }
  bool VisitCallExpr(CallExpr *C) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C->getDirectCallee());
    // A checkpoint of the variable itself (torch::save(v, f) and
    // torch::load(v, f) in the same code) brings back a value it held,
    // with that value's device; a load alone brings back anything.
    if (Assigned && C->getNumArgs() > 0 && names(C->getArg(0))) {
      if (isTorchFunction(C->getDirectCallee(), "load")) {
        Loaded = true;
        return true;
      }
      Saved |= isTorchFunction(C->getDirectCallee(), "save");
    }
    // When values are collected, an in-place tensor method (index_put_)
    // writes data but leaves the variable holding the same tensor.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
      Found |= MD && !MD->isConst() && !(Assigned && isTensorMethod(MD, MD->getName())) &&
               names(MC->getImplicitObjectArgument());
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
        Assigned && Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        names(Op->getArg(0))) {
      Assigned->push_back({Op->getArg(1)});
      return true;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
        Assigned && Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      if (int I = tiedIndex(Op->getArg(0)); I >= 0) {
        Assigned->push_back({Op->getArg(1), I});
        Ties.insert(Op->getArg(0)->IgnoreImplicit());
        return true;
      }
    if (Ties.contains(C) || CopiedElements.contains(C))
      return true;  // its std::tie, already taken as a value; an element only read
    if (isa<CXXOperatorCallExpr>(C) && MD)  // the object comes first
      Found |= !MD->isConst() && C->getNumArgs() > 0 && names(C->getArg(0));
    if (!Found && Assigned && assignedByCallee(*C))
      return true;
    Found = Found || callMayChangeArgument(*C, [&](const Expr *A) { return names(A); });
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    // auto v = std::get<0>(t): the element is copied out, t is only read.
    if (C->getConstructor()->isCopyConstructor() && C->getNumArgs() == 1)
      if (const auto *Get = dyn_cast<CallExpr>(C->getArg(0)->IgnoreImplicit()))
        if (const FunctionDecl *FD = Get->getDirectCallee();
            FD && FD->isInStdNamespace() && FD->getIdentifier() && FD->getName() == "get")
          CopiedElements.insert(Get);
    for (unsigned I = 0; I < C->getNumArgs() && !Found; ++I)
      Found = mayChangeArgument(C->getConstructor(), I) && names(C->getArg(I));
    return !Found;
  }

private:
  // The call passes the variable to reference parameters of a function of
  // the code (defined here, not virtual) that only assigns them
  // (void fill(Tensor &out) { out = torch::zeros(...); }): what it assigns
  // is what the variable may hold after the call. Followed two calls deep.
  bool assignedByCallee(const CallExpr &C) {
    static thread_local int Depth = 0;
    const FunctionDecl *FD = C.getDirectCallee();
    const FunctionDecl *Def = nullptr;
    if (!FD || Depth > 1 || !FD->hasBody(Def) || !Def || isTorchDecl(Def) ||
        Def->getASTContext().getSourceManager().isInSystemHeader(Def->getLocation()))
      return false;
    if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && M->isVirtual())
      return false;
    unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    std::vector<HeldValue> Values;
    bool Passed = false;
    for (unsigned I = Shift; I < C.getNumArgs(); ++I) {
      if (!names(C.getArg(I)) || !mayChangeArgument(FD, I - Shift))
        continue;
      ++Depth;
      bool Known = I - Shift < Def->getNumParams() &&
                   allAssignedValues(*Def->getParamDecl(I - Shift), Values);
      --Depth;
      if (!Known)
        return false;
      Passed = true;
    }
    for (HeldValue &H : Values)
      H.Call = &C;
    if (Passed)
      Assigned->insert(Assigned->end(), Values.begin(), Values.end());
    return Passed;
  }

  // The position of the variable in std::tie(a, v, ...); -1 when E is no
  // such call or the variable is not in it.
  int tiedIndex(const Expr *E) const {
    const auto *Tie = dyn_cast<CallExpr>(E->IgnoreImplicit());
    const FunctionDecl *FD = Tie ? Tie->getDirectCallee() : nullptr;
    if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier() || FD->getName() != "tie")
      return -1;
    for (unsigned I = 0; I < Tie->getNumArgs(); ++I)
      if (names(Tie->getArg(I)))
        return static_cast<int>(I);
    return -1;
  }
  bool names(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return ME->getMemberDecl() == &V && (!Of || namesVar(ME->getBase(), *Of));
    return !Of && namesVar(E, V);
  }
  static bool namesVar(const Expr *E, const ValueDecl &D) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == &D;
  }
  const ValueDecl &V;
  std::vector<HeldValue> *Assigned;
  const VarDecl *Of;
  llvm::SmallPtrSet<const Expr *, 2> Ties;
  llvm::SmallPtrSet<const Expr *, 2> CopiedElements;
};
} // namespace

// A parameter T&& of a function template, T deduced: an lvalue binds to it
// as T&.
static bool isForwardingReference(const ParmVarDecl *P) {
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  const FunctionDecl *Pattern = FD ? FD->getTemplateInstantiationPattern() : nullptr;
  if (!Pattern || Pattern->getNumParams() == 0)
    return false;
  // The arguments past a pack's position all came from the pack.
  unsigned I = std::min(P->getFunctionScopeIndex(), Pattern->getNumParams() - 1);
  const ParmVarDecl *Written = Pattern->getParamDecl(I);
  if (I != P->getFunctionScopeIndex() && !Written->isParameterPack())
    return false;
  QualType T = Written->getType();
  if (const auto *Pack = T->getAs<PackExpansionType>())
    T = Pack->getPattern();
  const auto *R = T->getAs<RValueReferenceType>();
  return R && !R->getPointeeType().hasQualifiers() &&
         R->getPointeeType()->getAs<TemplateTypeParmType>();
}

// The user's function, defined in the code and not virtual, never changes
// its reference parameter I (torch::Tensor &x written where a const
// reference would do). Calls in it are followed two levels deep; a
// recursive call counts as a change.
static bool leavesParamAlone(const FunctionDecl &FD, unsigned I) {
  static thread_local llvm::SmallPtrSet<const FunctionDecl *, 4> Open;
  const FunctionDecl *Def = nullptr;
  if (!FD.hasBody(Def) || !Def || Open.size() > 2 || Open.contains(Def) ||
      Def->getASTContext().getSourceManager().isInSystemHeader(Def->getLocation()))
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def); MD && MD->isVirtual())
    return false;
  Open.insert(Def);
  ChangeFinder F(*Def->getParamDecl(I));
  F.TraverseStmt(Def->getBody());
  Open.erase(Def);
  return !F.Found;
}

bool mayChangeArgument(const FunctionDecl *FD, unsigned I) {
  // torch::load(value, path) reads the value from a file into its first
  // argument, unlike LibTorch's other functions taking references.
  if (I == 0 && isTorchFunction(FD, "load"))
    return true;
  if (!FD || isTorchDecl(FD) || I >= FD->getNumParams())
    return false;
  const ParmVarDecl *P = FD->getParamDecl(I);
  QualType T = P->getType();
  if (!T->isReferenceType() || T.getNonReferenceType().isConstQualified())
    return false;
  // The standard library copies what it forwards (std::tuple's and
  // std::make_pair's arguments, emplace_back's).
  bool Std = FD->getDeclContext()->getEnclosingNamespaceContext()->isStdNamespace();
  return !(Std && isForwardingReference(P)) && !leavesParamAlone(*FD, I);
}

const Expr *argumentFor(const CallExpr &Call, unsigned I) {
  unsigned Shift =
      isa<CXXOperatorCallExpr>(Call) && isa_and_nonnull<CXXMethodDecl>(Call.getDirectCallee());
  if (I + Shift >= Call.getNumArgs())
    return nullptr;
  const Expr *A = Call.getArg(I + Shift);
  if (const auto *D = dyn_cast<CXXDefaultArgExpr>(A))
    return D->getExpr();
  return A;
}

static bool changesArgument(const CallExpr &Call, const FunctionDecl *FD,
                            llvm::function_ref<bool(const Expr *)> Names) {
  unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(FD) ? 1 : 0;
  for (unsigned I = Shift; I < Call.getNumArgs(); ++I)
    if (mayChangeArgument(FD, I - Shift) && Names(Call.getArg(I)))
      return true;
  return false;
}

bool callMayChangeArgument(const CallExpr &Call, llvm::function_ref<bool(const Expr *)> Names) {
  if (const FunctionDecl *FD = Call.getDirectCallee())
    return changesArgument(Call, FD, Names);
  // An unresolved call changes what any function it may call changes.
  return llvm::any_of(unresolvedCallees(Call),
                      [&](const FunctionDecl *FD) { return changesArgument(Call, FD, Names); });
}

bool changes(const Stmt &S, const ValueDecl &V) {
  ChangeFinder F(V);
  F.TraverseStmt(const_cast<Stmt *>(&S));
  return F.Found;
}

bool isUnchanged(const VarDecl &V) {
  if (V.getType().getNonReferenceType().isConstQualified())
    return true;
  if (!V.isLocalVarDeclOrParm())
    return false;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
  return FD && FD->getBody() && !changes(*FD->getBody(), V);
}

bool isUnchanged(const BindingDecl &B) {
  const auto *DD = dyn_cast_or_null<DecompositionDecl>(B.getDecomposedDecl());
  const auto *FD = DD ? dyn_cast_or_null<FunctionDecl>(DD->getParentFunctionOrMethod()) : nullptr;
  // auto &[a, b] = t names t's elements, which t may change.
  return FD && FD->getBody() && !DD->getType()->isReferenceType() && !changes(*FD->getBody(), B);
}

// A default construction (an undefined tensor holds no data anywhere).
static bool isDefaultConstruction(const Expr *E) {
  const auto *C = dyn_cast_or_null<CXXConstructExpr>(E ? E->IgnoreImplicit() : nullptr);
  return C && C->getNumArgs() == 0;
}

bool allAssignedValues(const VarDecl &V, std::vector<HeldValue> &Out) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
  if ((!isa<ParmVarDecl>(V) && !V.isLocalVarDecl()) || !FD || !FD->getBody())
    return false;
  ChangeFinder F(V, &Out);
  F.TraverseStmt(FD->getBody());
  return !F.changedOtherwise();
}

bool allMemberAssignedValues(const VarDecl &V, const FieldDecl &F, std::vector<HeldValue> &Out) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
  // A reference's writes through other names are the referenced object's
  // to find (a range-for's element, a container's element).
  if (!V.isLocalVarDecl() || (V.getType()->isReferenceType() && !V.getInit()) || !FD ||
      !FD->getBody())
    return false;
  ChangeFinder Finder(F, &Out, &V);
  Finder.TraverseStmt(FD->getBody());
  return !Finder.changedOtherwise();
}

const Expr *givenInit(const VarDecl &V) {
  const Expr *Init = V.getInit();
  return Init && !isDefaultConstruction(Init) && !lostInitializer(V) ? Init : nullptr;
}

bool allHeldValues(const VarDecl &V, std::vector<HeldValue> &Out) {
  if (isa<ParmVarDecl>(V) || lostInitializer(V) || !allAssignedValues(V, Out))
    return false;
  if (const Expr *Init = givenInit(V))
    Out.push_back({Init});
  return true;
}

bool allValuesOf(const VarDecl &V, std::vector<const Expr *> &Out) {
  std::vector<HeldValue> Held;
  if (!allHeldValues(V, Held) ||
      llvm::any_of(Held, [](const HeldValue &H) { return H.Element >= 0; }))
    return false;
  for (const HeldValue &H : Held)
    Out.push_back(H.E);
  return true;
}

// The methods of RD all have their bodies here (or are defined nowhere, as
// Absent says), and nothing else can reach its private members: no
// friends, member templates or nested classes.
static bool classInView(const CXXRecordDecl &RD,
                        llvm::function_ref<bool(const CXXMethodDecl &)> Absent) {
  if (!RD.hasDefinition() || RD.friend_begin() != RD.friend_end())
    return false;
  for (const Decl *D : RD.decls()) {
    const auto *Nested = dyn_cast<CXXRecordDecl>(D);
    if (isa<FunctionTemplateDecl>(D) || (Nested && !Nested->isInjectedClassName()))
      return false;
  }
  return llvm::all_of(RD.methods(), [&](const CXXMethodDecl *MD) {
    return MD->isImplicit() || MD->isDefaulted() || MD->isDeleted() || MD->isPureVirtual() ||
           MD->hasBody() || Absent(*MD);
  });
}

bool privateMemberInView(const Decl &M,
                         llvm::function_ref<bool(const CXXMethodDecl &)> Absent) {
  const auto *RD = dyn_cast<CXXRecordDecl>(M.getDeclContext()->getRedeclContext());
  return RD && M.getAccess() == AS_private && classInView(*RD, Absent);
}

void visitFieldCode(const FieldDecl &F, llvm::function_ref<void(const Expr *)> InitOfF,
                    llvm::function_ref<void(Stmt *)> Code) {
  for (const CXXMethodDecl *MD : cast<CXXRecordDecl>(F.getParent())->methods()) {
    const FunctionDecl *Def = nullptr;
    if (!MD->hasBody(Def) || !Def || MD->isImplicit() || MD->isDefaulted())
      continue;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits()) {
        if (Init->getMember() == &F && Init->isWritten())
          InitOfF(Init->getInit());
        Code(Init->getInit());
      }
    Code(Def->getBody());
  }
}

bool allFieldValues(const FieldDecl &F, std::vector<const Expr *> &Out,
                    llvm::function_ref<bool(const CXXMethodDecl &)> Absent) {
  if (!privateMemberInView(F, Absent))
    return false;
  std::vector<HeldValue> Held;
  ChangeFinder Finder(F, &Held);
  visitFieldCode(
      F,
      [&](const Expr *Init) {
        if (!isDefaultConstruction(Init))
          Held.push_back({Init});
      },
      [&](Stmt *S) { Finder.TraverseStmt(S); });
  if (const Expr *Init = F.getInClassInitializer(); Init && !isDefaultConstruction(Init))
    Held.push_back({Init});
  if (Finder.changedOtherwise() ||
      llvm::any_of(Held, [](const HeldValue &H) { return H.Element >= 0; }))
    return false;
  for (const HeldValue &H : Held)
    Out.push_back(H.E);
  return !Out.empty();
}

const Expr *lastingInit(const VarDecl *V) {
  return V && !isa<ParmVarDecl>(V) && V->getInit() && isUnchanged(*V) ? V->getInit() : nullptr;
}

} // namespace torchtidy
