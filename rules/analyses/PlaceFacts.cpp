#include "analyses/PlaceFacts.h"
#include "analyses/PlaceFactsState.h"

#include "analyses/CallFrames.h"
#include "analyses/LoopContext.h"
#include "analyses/TensorDevice.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"


using namespace clang;

namespace torchtidy {

thread_local placefacts::State *placefacts::Current = nullptr;

namespace placefacts {
bool returnsFollowed(const FunctionDecl &FD) {
  return !isTorchDecl(&FD) && !FD.isInStdNamespace() && !FD.isDependentContext();
}

bool followed(const FunctionDecl &FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  return !(MD && (MD->isVirtual() || isa<CXXConstructorDecl>(MD) || MD->getParent()->isLambda())) &&
         returnsFollowed(FD);
}

bool tracked(QualType T) { return isTensorType(T) || place::holdsTensors(T); }
} // namespace placefacts

using namespace placefacts;

PlaceFactsScope::PlaceFactsScope(ASTContext &Ctx, ProgramSummaries *Program,
                                 llvm::ArrayRef<SourceLocation> Errors) {
  const SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  Current = new State{Ctx, Program, Main ? Main->getName().str() : "", Errors.vec(), std::nullopt,
                      std::nullopt, {}, {}, {}, {}, false};
}

// The calls of FD in this TU are all ones Pred holds for (none taking its
// address); Count counts them.
static bool everyCallHere(const FunctionDecl *FD, unsigned &Count,
                          llvm::function_ref<bool(const CallExpr &)> Pred) {
  CallIndex &Index = Current->index();
  const FunctionDecl *Key = FD->getCanonicalDecl();
  if (Index.AddressTaken.count(Key))
    return false;
  auto Calls = Index.Calls.find(Key);
  if (Calls == Index.Calls.end())
    return true;
  Count += Calls->second.size();
  return llvm::all_of(Calls->second, [&](const CallExpr *C) { return Pred(*C); });
}

// The calls of FD in this TU all pass a value living at Q.Where for
// parameter I (with P open: a call passing P's own value adds nothing).
static bool callsHereThere(const FunctionDecl *FD, unsigned I, QualType T, int Depth,
                           place::Question &Q, unsigned &Count) {
  return everyCallHere(FD, Count, [&](const CallExpr &C) {
    return place::valueLives(argumentFor(C, I), T, Depth + 1, Q);
  });
}

// Every other TU's fact under Prefix holds. With Count facts of this TU's
// own, the answer needs every fact to hold; without, also one. Count grows
// by the facts read.
static bool factsElsewhereHold(const std::string &Prefix, unsigned &Count) {
  FactQuestion Q = Count > 0 ? FactQuestion::AllHold : FactQuestion::SomeAllHold;
  for (const auto &[Key, Facts] : Current->Program->factsUnder(Prefix, Q)) {
    if (llvm::StringRef(Key).ends_with("@" + Current->Self))
      continue;
    if (Facts->empty() || Facts->front().Op.What != FactHolds)
      return false;
    ++Count;
  }
  return true;
}

// The other TUs' calls of FD all pass a value living at Where for parameter
// I (Count: the calls here, grown by those elsewhere).
static bool callsElsewhereThere(const FunctionDecl *FD, unsigned I, place::Place Where,
                                unsigned &Count) {
  std::string Usr = usrOf(FD);
  return !Usr.empty() && Current->Program && factsElsewhereHold(paramKey(Usr, I, Where), Count);
}

// No call of FD in this TU is in a loop, or in a lambda (which may be
// called in one: std::for_each).
static bool callsHereOutsideLoops(const FunctionDecl *FD, unsigned &Count) {
  return everyCallHere(FD, Count, [](const CallExpr &C) {
    const auto *In = dyn_cast_or_null<CXXMethodDecl>(enclosingFunction(C, Current->Ctx));
    return !loopContextOf(C, Current->Ctx) && !(In && In->getParent()->isLambda());
  });
}

bool calledOnlyOutsideLoops(const FunctionDecl &FD) {
  if (!Current || !followed(FD))
    return false;
  unsigned Count = 0;
  if (!callsHereOutsideLoops(&FD, Count))
    return false;
  std::string Usr = usrOf(&FD);
  if (FD.isExternallyVisible() && Current->Program && !Usr.empty() &&
      !factsElsewhereHold(calledKey(Usr), Count))
    return false;
  return Count > 0;
}

PlaceFactsScope::~PlaceFactsScope() {
  delete Current;
  Current = nullptr;
}

bool place::paramLives(const ParmVarDecl &P, int Depth, Question &Q) {
  const auto *FD = dyn_cast<FunctionDecl>(P.getDeclContext());
  if (!Current || !FD || !followed(*FD) || tooDeep(Depth, Q) ||
      (isTensorType(P.getType()) && !isUnchanged(P)))
    return false;
  // A private method of a class whose every method is defined here is
  // called from this TU only: no other file's facts are needed.
  bool OnlyHere = !FD->isExternallyVisible() ||
                  privateMemberInView(*FD, [](const CXXMethodDecl &) { return false; });
  if (Q.Exporting && !OnlyHere)
    return false;
  return remembered(P, Q, [&] {
    unsigned I = P.getFunctionScopeIndex(), Count = 0;
    return callsHereThere(FD, I, P.getType(), Depth, Q, Count) &&
           (OnlyHere || callsElsewhereThere(FD, I, Q.Where, Count)) && Count > 0;
  });
}

bool place::remembered(const ValueDecl &D, Question &Q, llvm::function_ref<bool()> Prove) {
  if (Q.Open.count(&D))
    return true;
  if (!Current)
    return false;
  auto Key = std::make_tuple(&D, Q.Where, Q.Exporting);
  if (auto It = Current->Proofs.find(Key); It != Current->Proofs.end())
    return It->second;
  Q.Open.insert(&D);
  bool WasCut = Q.Cut;
  Q.Cut = false;
  bool There;
  {
    HiddenFrames ForEveryCall;
    There = Prove();
  }
  Q.Open.erase(&D);
  if (There ? Q.Open.empty() : !Q.Cut)
    Current->Proofs[Key] = There;
  Q.Cut |= WasCut;
  return There;
}

// A method without a body here that no file of the program defines.
static bool definedNowhere(const CXXMethodDecl &MD) {
  std::string Usr = usrOf(&MD);
  return Current->Program && !Usr.empty() && !Current->programHas(definedKey(Usr));
}

// A class whose private fields hold tensors: its methods' definitions are
// facts, for definedNowhere.
static bool hasPrivateTensors(const CXXRecordDecl &RD) {
  return llvm::any_of(RD.fields(), [](const FieldDecl *F) {
    return F->getAccess() == AS_private && tracked(F->getType());
  });
}

bool place::fieldInView(const FieldDecl &F) {
  return Current && privateMemberInView(F, definedNowhere);
}

bool place::fieldValues(const FieldDecl &F, std::vector<const Expr *> &Out) {
  if (!Current)
    return false;
  auto [It, New] = Current->Fields.try_emplace(&F);
  if (New) {
    std::vector<const Expr *> Values;
    if (allFieldValues(F, Values, definedNowhere))
      It->second = std::move(Values);
  }
  if (!It->second)
    return false;
  Out = *It->second;
  return true;
}

bool place::returnsThereElsewhere(const FunctionDecl &FD, Place Where, const FieldDecl *Member) {
  if (!Current || !returnsFollowed(FD))
    return false;
  std::string Usr = usrOf(&FD);
  return !Usr.empty() && Current->programHas(Member ? memberKey(Usr, *Member, Where)
                                                    : returnsKey(Usr, Where));
}

// Every return of FD, defined here, lives at Where (or has its member F
// there), whatever other files pass to the parameters of its functions.
static bool returnsThere(const FunctionDecl &FD, place::Place Where,
                         const FieldDecl *F = nullptr) {
  place::Question Q{Where, {}, false, /*Exporting=*/true};
  return place::everyReturn(FD, [&](const Expr *V) {
    return F ? place::memberLives(V, *F, 1, Q) : place::valueLives(V, FD.getReturnType(), 1, Q);
  });
}

// The tensor members of the record FD returns by value.
static std::vector<const FieldDecl *> returnedMembers(const FunctionDecl &FD) {
  std::vector<const FieldDecl *> Out;
  if (const CXXRecordDecl *RD = FD.getReturnType()->getAsCXXRecordDecl())
    for (const FieldDecl *F : RD->fields())
      if (isTensorType(F->getType()))
        Out.push_back(F);
  return Out;
}

static void addFact(FunctionTable &Out, const std::string &Key, const char *What) {
  ReachedEffect Fact;
  Fact.Op.Kind = EffectKind::TensorWork;
  Fact.Op.What = What;
  Out[Key] = {Fact};
}

void exportPlaceFacts(FunctionTable &Out) {
  if (!Current)
    return;
  CallIndex &Index = Current->index();
  bool HasMain = definesMain(Current->Ctx);
  std::set<const FunctionDecl *> Named(Index.AddressTaken);
  for (const auto &Entry : Index.Calls)
    Named.insert(Entry.first);
  for (const FunctionDecl *FD : Named) {
    std::string Usr = usrOf(FD);
    if (!FD->isExternallyVisible() || !followed(*FD) || Usr.empty())
      continue;
    unsigned Count = 0;
    // A program's file leaves out calls only from header functions it does
    // not call: the files that call those have the calls too.
    if (!HasMain || Index.AddressTaken.count(FD) ||
        !llvm::all_of(Index.Calls[FD], [](const CallExpr *C) { return inUncalledHeaderFunction(*C); }))
      addFact(Out, calledKey(Usr) + Current->Self,
              callsHereOutsideLoops(FD, Count) ? FactHolds : FactFails);
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      QualType T = FD->getParamDecl(I)->getType();
      for (place::Place Where : Places) {
        place::Question Q{Where, {}};
        unsigned Count = 0;
        if (tracked(T))
          addFact(Out, paramKey(Usr, I, Where) + Current->Self,
                  callsHereThere(FD, I, T, 0, Q, Count) ? FactHolds : FactFails);
      }
    }
  }
  if (HasMain)
    addFact(Out, MainKey + Current->Self, FactHolds);
  for (const std::string &Name : Current->unresolvedNames())
    addFact(Out, unresolvedKey(Name) + Current->Self, FactHolds);
  for (const FunctionDecl *Def : Index.Defined) {
    bool Exported = Def->isExternallyVisible() && returnsFollowed(*Def);
    if (Exported && tracked(Def->getReturnType()))
      for (place::Place Where : Places)
        if (returnsThere(*Def, Where))
          addFact(Out, returnsKey(usrOf(Def), Where), FactHolds);
    if (Exported)
      for (const FieldDecl *F : returnedMembers(*Def))
        for (place::Place Where : Places)
          if (returnsThere(*Def, Where, F))
            addFact(Out, memberKey(usrOf(Def), *F, Where), FactHolds);
    if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
        MD && MD->isExternallyVisible() && hasPrivateTensors(*MD->getParent()))
      addFact(Out, definedKey(usrOf(MD)), FactHolds);
  }
}

} // namespace torchtidy
