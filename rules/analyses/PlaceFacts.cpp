#include "analyses/PlaceFacts.h"

#include "analyses/CallFrames.h"
#include "analyses/CallIndex.h"
#include "analyses/LoopContext.h"
#include "analyses/PlaceFlow.h"
#include "analyses/TensorDevice.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"

#include <map>
#include <optional>
#include <set>
#include <tuple>

using namespace clang;

namespace torchtidy {

namespace {
struct State {
  ASTContext &Ctx;
  ProgramSummaries *Program;
  std::string Self;  // this TU's main file, naming the facts it exports
  std::vector<SourceLocation> Errors;
  std::optional<CallIndex> Index;
  std::optional<std::set<std::string>> Unresolved;
  // Answers that hold whatever is open (place::remembered).
  std::map<std::tuple<const ValueDecl *, place::Place, bool>, bool> Proofs;
  // The values of private fields; none when not all are known.
  std::map<const FieldDecl *, std::optional<std::vector<const Expr *>>> Fields;
  // uncalledInProgram's answers, the functions it is deciding, and whether
  // the answer being decided assumed one of those uncalled.
  std::map<const FunctionDecl *, bool> Uncalled;
  std::set<const FunctionDecl *> UncalledOpen;
  bool UncalledAssumed = false;

  CallIndex &index() {
    if (!Index)
      Index = indexCalls(Ctx);
    return *Index;
  }
  bool programHas(const std::string &Key) { return Program && Program->lookup(Key); }
  const std::set<std::string> &unresolvedNames() {
    if (!Unresolved)
      Unresolved = unresolvedCallNames(Ctx, Errors);
    return *Unresolved;
  }
};

thread_local State *Current = nullptr;

constexpr place::Place Places[] = {place::Place::Host, place::Place::Device};

// Facts are keyed apart from USRs (which start with "c:"): what the calls
// of one TU pass for a parameter, and that a function returns values living
// on the host, or on a device.
std::string placeName(place::Place Where) {
  return Where == place::Place::Host ? "host" : "device";
}
std::string paramKey(const std::string &Usr, unsigned I, place::Place Where) {
  return "torchtidy-" + placeName(Where) + "-param:" + Usr + "#" + std::to_string(I) + "@";
}
std::string returnsKey(const std::string &Usr, place::Place Where) {
  return "torchtidy-" + placeName(Where) + "-returns:" + Usr;
}
std::string memberKey(const std::string &Usr, const FieldDecl &F, place::Place Where) {
  return "torchtidy-" + placeName(Where) + "-member:" + Usr + "." + F.getNameAsString();
}
// That a method of a class with private tensor fields is defined.
std::string definedKey(const std::string &Usr) { return "torchtidy-defined:" + Usr; }
// Whether one TU calls a function only outside loops.
std::string calledKey(const std::string &Usr) { return "torchtidy-called-once:" + Usr + "@"; }
// That a TU defines main(); that it calls a name without Clang resolving it.
const std::string MainKey = "torchtidy-main@";
std::string unresolvedKey(llvm::StringRef Name) {
  return "torchtidy-unresolved:" + Name.str() + "@";
}

// Returns are followed for any function of the code, virtual ones too (the
// override the call names, as in the file itself), but not into templates.
bool returnsFollowed(const FunctionDecl &FD) {
  return !isTorchDecl(&FD) && !FD.isInStdNamespace() && !FD.isDependentContext();
}

// Parameters are followed for functions whose calls the code shows: not a
// virtual method, a constructor, a lambda or a library's function. A
// module's forward is called through its holder (module(x), a call of the
// forward here) or by a Sequential or AnyModule it was put in (its address
// taken).
bool followed(const FunctionDecl &FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  return !(MD && (MD->isVirtual() || isa<CXXConstructorDecl>(MD) || MD->getParent()->isLambda())) &&
         returnsFollowed(FD);
}

bool tracked(QualType T) { return isTensorType(T) || place::holdsTensors(T); }
} // namespace

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

static bool definesMain(ASTContext &Ctx) {
  return llvm::any_of(Ctx.getTraversalScope(), [](const Decl *D) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    return FD && FD->isMain() && FD->doesThisDeclarationHaveABody();
  });
}

// Qt's moc calls the slots of a Q_OBJECT class from code it generates.
static bool connectedByMoc(const FunctionDecl &FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  return MD && llvm::any_of(MD->getParent()->methods(), [](const CXXMethodDecl *M) {
           return M->getIdentifier() && M->getName() == "qt_metacall";
         });
}

// The function whose body holds S, a lambda's body being part of the body
// around the lambda; null outside any (a variable's initialiser).
static const FunctionDecl *holderOf(const Stmt &S) {
  DynTypedNodeList Parents = Current->Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *FD = P.get<FunctionDecl>()) {
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (!MD || !MD->getParent()->isLambda())
        return FD;
    }
    Parents = Current->Ctx.getParents(P);
  }
  return nullptr;
}

// The call runs in no program: the function around it is uncalled.
static bool inUncalledFunction(const CallExpr &C) {
  const FunctionDecl *Holder = holderOf(C);
  return Holder && uncalledInProgram(*Holder);
}

static bool uncalledHere(const FunctionDecl &FD, const std::string &Usr) {
  CallIndex &Index = Current->index();
  const FunctionDecl *Key = FD.getCanonicalDecl();
  if (Index.AddressTaken.count(Key) || Current->unresolvedNames().count(FD.getName().str()))
    return false;
  ProgramSummaries &P = *Current->Program;
  if ((!definesMain(Current->Ctx) && P.factsUnder(MainKey, FactQuestion::Some).empty()) ||
      !P.factsUnder(unresolvedKey(FD.getName()), FactQuestion::Some).empty())
    return false;
  // Other files can call only what has external linkage.
  if (FD.isExternallyVisible())
    for (const auto &Fact : P.factsUnder(calledKey(Usr), FactQuestion::Some))
      if (!llvm::StringRef(Fact.first).ends_with("@" + Current->Self))
        return false;
  // Called here only from functions no program runs (itself included).
  auto Calls = Index.Calls.find(Key);
  return Calls == Index.Calls.end() || llvm::all_of(Calls->second, [&](const CallExpr *C) {
           const FunctionDecl *Holder = holderOf(*C);
           return Holder && (Holder->getCanonicalDecl() == Key || inUncalledFunction(*C));
         });
}

bool uncalledInProgram(const FunctionDecl &FD) {
  // A template's code runs through its instantiations: none when every one
  // made here is uncalled (another file's own would show there).
  if (const FunctionTemplateDecl *T = FD.getDescribedFunctionTemplate())
    return Current && !T->specializations().empty() &&
           llvm::all_of(T->specializations(),
                        [](const FunctionDecl *S) { return uncalledInProgram(*S); });
  if (!Current || !Current->Program || !followed(FD) || FD.isMain() || FD.isExternC() || isa<CXXDestructorDecl, CXXConversionDecl>(FD) ||
      connectedByMoc(FD) || !FD.getIdentifier())
    return false;
  std::string Usr = usrOf(&FD);
  const FunctionDecl *Key = FD.getCanonicalDecl();
  if (Usr.empty())
    return false;
  // Functions that call each other and nothing else: none keeps another
  // alive. An answer that took such an assumption is not kept.
  if (Current->UncalledOpen.count(Key)) {
    Current->UncalledAssumed = true;
    return true;
  }
  if (auto It = Current->Uncalled.find(Key); It != Current->Uncalled.end())
    return It->second;
  bool WasAssumed = Current->UncalledAssumed;
  Current->UncalledAssumed = false;
  Current->UncalledOpen.insert(Key);
  bool Uncalled = uncalledHere(FD, Usr);
  Current->UncalledOpen.erase(Key);
  if (!Uncalled || !Current->UncalledAssumed || Current->UncalledOpen.empty())
    Current->Uncalled[Key] = Uncalled;
  Current->UncalledAssumed |= WasAssumed;
  return Uncalled;
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
  std::set<const FunctionDecl *> Named(Index.AddressTaken);
  for (const auto &Entry : Index.Calls)
    Named.insert(Entry.first);
  for (const FunctionDecl *FD : Named) {
    std::string Usr = usrOf(FD);
    if (!FD->isExternallyVisible() || !followed(*FD) || Usr.empty())
      continue;
    unsigned Count = 0;
    if (!Index.AddressTaken.count(FD) && llvm::all_of(Index.Calls[FD], [](const CallExpr *C) {
          return inUncalledFunction(*C);
        }))
      continue;  // called only from functions no program runs
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
  if (definesMain(Current->Ctx))
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
