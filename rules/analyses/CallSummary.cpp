#include "analyses/CallSummary.h"

#include "analyses/CallClassify.h"
#include "analyses/Callbacks.h"
#include "analyses/DependentCall.h"
#include "analyses/DeviceExpr.h"
#include "analyses/TensorPlace.h"
#include "analyses/LoopContext.h"
#include "analyses/ProgramSummary.h"
#include "analyses/SyncingOps.h"
#include "analyses/TensorDevice.h"
#include "analyses/TorchTypes.h"
#include "analyses/UnresolvedCall.h"
#include "analyses/VarValues.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace torchtidy {

void CallSummaries::merge(Summary &Out, const ReachedEffect &E) {
  auto Same = [&](const ReachedEffect &O) {
    return O.Op.Kind == E.Op.Kind && O.InLoop == E.InLoop && O.Callback == E.Callback &&
           (E.Callback < 0 || sameHandedLink(O.Chain, E.Chain));
  };
  for (const ReachedEffect &O : Out)
    if (Same(O) && (O.WhenParam < 0 || (O.WhenParam == E.WhenParam && O.When == E.When)))
      return;
  // One that runs whatever the flags says more than those under a flag.
  if (E.WhenParam < 0)
    llvm::erase_if(Out, Same);
  Out.push_back(E);
}

// Use reads what the caller passed: the parameter is given no value before
// it (t = t.cpu() reads it on the right, before the assignment), and no
// loop runs it again after one.
static bool readsArgument(const ParmVarDecl &P, const DeclRefExpr &Use, ASTContext &Ctx) {
  if (isUnchanged(P))
    return true;
  std::vector<HeldValue> Values;
  if (!allAssignedValues(P, Values) || loopContextOf(Use, Ctx))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  return llvm::all_of(Values, [&](const HeldValue &H) {
    return !SM.isBeforeInTranslationUnit(H.where()->getEndLoc(), Use.getLocation());
  });
}

// The index of the parameter of the function being summarised that E names
// (if (show), draw(img, show)), holding the caller's argument there, of the
// type When asks for; -1 otherwise.
int CallSummaries::conditionParam(const Expr *E, ParamCondition When) const {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreUnlessSpelledInSource()) : nullptr;
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || !Current || P->getDeclContext() != Current || !readsArgument(*P, *DRE, Ctx))
    return -1;
  QualType T = P->getType();
  bool Typed = When == ParamCondition::Flag            ? T->isBooleanType()
               : When == ParamCondition::OptionsDevice ? isTensorOptionsType(T)
                                                       : isTensorType(T.getNonReferenceType());
  return Typed ? static_cast<int>(P->getFunctionScopeIndex()) : -1;
}

// x.to(opts) on the function's TensorOptions parameter: a copy when the
// caller's options carry a device (ImgData::to(const TensorOptions &)
// called as data.to(device)).
std::optional<ReachedEffect> CallSummaries::copyToOptionsParam(const CallExpr &Call) const {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !isTensorMethod(MD, "to") || MC->getNumArgs() == 0)
    return std::nullopt;
  int Param = conditionParam(MC->getArg(0), ParamCondition::OptionsDevice);
  std::optional<Effect> Copy =
      Param >= 0 ? classifyTransfer(*MC, Ctx, /*AssumeDevice=*/true) : std::nullopt;
  if (!Copy || Copy->Kind != EffectKind::Copy)
    return std::nullopt;
  ReachedEffect R{*Copy, {}};
  R.WhenParam = Param;
  R.When = ParamCondition::OptionsDevice;
  return R;
}

// The copy Call makes of the function's own tensor parameter (t.to(device),
// t.cuda()) copies only what the caller passes from the host, and its read
// of one (t.cpu(), t[i].item()) waits only for what the caller passes from
// a device: a caller whose argument is there already does neither.
void CallSummaries::conditionOnParam(const CallExpr &Call,
                                     std::vector<ReachedEffect> &Effects) const {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call);
  for (ReachedEffect &R : Effects) {
    if (!MC || !R.Chain.empty() || R.Op.Site != &Call || R.WhenParam >= 0)
      continue;
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (R.Op.Kind == EffectKind::Copy) {
      R.When = ParamCondition::NotOnDevice;
    } else if (R.Op.Kind == EffectKind::HostSync) {
      R.When = ParamCondition::NotOnHost;
      Obj = viewBase(Obj);
    } else {
      continue;
    }
    R.WhenParam = conditionParam(Obj, R.When);
    if (R.WhenParam < 0)
      R.When = ParamCondition::Flag;
  }
}

// Settles R's condition on its function's parameter with Call's argument:
// false when it does not run (a false flag, options with no device or the
// CPU, a tensor on the device already), kept on the caller's own parameter
// when the argument is one.
bool CallSummaries::keepsCondition(ReachedEffect &R, const CallExpr &Call) const {
  if (R.WhenParam < 0)
    return true;
  const Expr *Arg = argumentFor(Call, R.WhenParam);
  switch (R.When) {
  case ParamCondition::OptionsDevice:
    if (Arg && knownDeviceKind(Arg) != DeviceKind::Cpu &&
        (isDeviceType(Arg->getType()) || optionsCarryDevice(Arg))) {
      R.WhenParam = -1;
      R.When = ParamCondition::Flag;
      return true;
    }
    R.WhenParam = conditionParam(Arg, R.When);
    return R.WhenParam >= 0;
  case ParamCondition::NotOnDevice:
  case ParamCondition::NotOnHost:
    if (Arg && (R.When == ParamCondition::NotOnDevice ? isPlacedOnDevice(Arg)
                                                      : isProvablyOnCpu(Arg)))
      return false;
    R.WhenParam = conditionParam(Arg, R.When);
    if (R.WhenParam < 0)
      R.When = ParamCondition::Flag;
    return true;
  case ParamCondition::Flag:
    break;
  }
  std::optional<bool> Flag = constantBool(Arg, Ctx);
  if (Flag == false)
    return false;
  R.WhenParam = Flag ? -1 : conditionParam(Arg);
  return true;
}

static bool inSystem(const Decl *D, ASTContext &Ctx) {
  return Ctx.getSourceManager().isInSystemHeader(D->getLocation());
}

std::vector<ReachedEffect> CallSummaries::effectsOfCall(const CallExpr &Call) {
  if (auto E = classifyCall(Call, Ctx)) {
    std::vector<ReachedEffect> Out{ReachedEffect{*E, {}}};
    if (const FunctionDecl *Forward = holderForward(Call))
      for (const ReachedEffect &R : effectsOfCallee(Call, Forward))
        merge(Out, R);
    return Out;
  }
  if (const ParmVarDecl *P = calledCallableParam(Call))
    return effectsOfCallback(Call, *P);
  const FunctionDecl *FD = calleeOf(Call);
  if (!FD)
    FD = dependentCallee(Call, Ctx);
  return FD ? effectsOfCallee(Call, FD) : effectsOfEveryCallee(Call);
}

// A call Clang left unresolved between several functions (overloads that
// take as many arguments) runs one of them: what each of them does, it
// does, as the first one's chain shows.
std::vector<ReachedEffect> CallSummaries::effectsOfEveryCallee(const CallExpr &Call) {
  std::vector<const FunctionDecl *> Candidates = unresolvedCallees(Call);
  if (Candidates.size() < 2)
    return {};
  std::vector<ReachedEffect> Common = effectsOfCallee(Call, Candidates.front());
  for (size_t I = 1; I < Candidates.size() && !Common.empty(); ++I) {
    std::vector<ReachedEffect> Other = effectsOfCallee(Call, Candidates[I]);
    llvm::erase_if(Common, [&](const ReachedEffect &E) {
      return llvm::none_of(Other, [&](const ReachedEffect &O) {
        return O.Op.Kind == E.Op.Kind && O.InLoop == E.InLoop;
      });
    });
  }
  return Common;
}

// What a call of a callable parameter runs: what each callable the program
// hands it does (any of them may be the one called).
std::vector<ReachedEffect> CallSummaries::effectsOfCallback(const CallExpr &Call, const ParmVarDecl &P) {
  std::vector<ReachedEffect> Handed = callbacksElsewhere(P);
  for (const HandedCallable &H : callablesHandedHere(P))
    for (ReachedEffect R : summaryOf(H.Body)) {
      R.Chain.insert(R.Chain.begin(), handedLink(H));
      Handed.push_back(std::move(R));
    }
  std::vector<ReachedEffect> Out;
  for (ReachedEffect R : Handed) {
    if (!keepsCondition(R, Call))
      continue;
    R.Callback = static_cast<int>(P.getFunctionScopeIndex());
    R.Chain.insert(R.Chain.begin(), ChainLink{callLoc(Call), {}, P.getNameAsString()});
    merge(Out, R);
  }
  return Out;
}

// A lambda called through its variable (fnRunMinibatch(0, n)) by that
// name; "lambda" otherwise.
static std::string lambdaName(const CallExpr &Call) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  const Expr *Object = Op && Op->getNumArgs() > 0 ? Op->getArg(0)->IgnoreParenImpCasts() : nullptr;
  const auto *Var = dyn_cast_or_null<DeclRefExpr>(Object);
  return Var ? Var->getDecl()->getNameAsString() : "lambda";
}

void overriddenMethods(const CXXMethodDecl *MD, std::vector<const CXXMethodDecl *> &Out) {
  for (const CXXMethodDecl *O : MD->overridden_methods()) {
    Out.push_back(O);
    overriddenMethods(O, Out);
  }
}

namespace {
class OverrideIndex : public RecursiveASTVisitor<OverrideIndex> {
public:
  std::map<const CXXMethodDecl *, std::vector<const FunctionDecl *>> By;
  bool VisitCXXMethodDecl(CXXMethodDecl *M) {
    if (!M->doesThisDeclarationHaveABody())
      return true;
    std::vector<const CXXMethodDecl *> Bases;
    overriddenMethods(M, Bases);
    for (const CXXMethodDecl *B : Bases)
      By[B->getCanonicalDecl()].push_back(M);
    return true;
  }
};
} // namespace

const std::vector<const FunctionDecl *> &CallSummaries::overridersHere(const CXXMethodDecl &MD) {
  if (!OverriderIndex) {
    OverrideIndex Index;
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (!inSystem(D, Ctx))
        Index.TraverseDecl(D);
    OverriderIndex = std::move(Index.By);
  }
  static const std::vector<const FunctionDecl *> None;
  auto It = OverriderIndex->find(MD.getCanonicalDecl());
  return It == OverriderIndex->end() ? None : It->second;
}

// What calling FD at Call does: its body's summary here, else its entry
// in the program's table; for a virtual method with no body here (a pure
// one), also what its overriders defined here do.
std::vector<ReachedEffect> CallSummaries::effectsOfCallee(const CallExpr &Call,
                                                          const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  const Summary *Callee = nullptr;
  Summary Dispatched;
  if (FD->hasBody(Def) && Def) {
    if (inSystem(Def, Ctx))
      return {};
    Callee = &summaryOf(Def);
  } else if (!inSystem(FD, Ctx)) {
    if (Program)
      Callee = Program->lookup(usrOf(FD));
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual()) {
      for (const FunctionDecl *O : overridersHere(*MD))
        for (const ReachedEffect &E : summaryOf(O))
          merge(Dispatched, E);
      if (!Dispatched.empty()) {
        if (Callee)
          for (const ReachedEffect &E : *Callee)
            merge(Dispatched, E);
        Callee = &Dispatched;
      }
    }
  }
  if (!Callee)
    return {};
  ChainLink Link{callLoc(Call), {}, FD->getNameAsString()};
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    if (MD->isVirtual())
      if (const auto *ME = dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParenImpCasts()))
        Link.Virtual = !ME->hasQualifier() && MD == Call.getDirectCallee();
    Link.Overriders = Link.Virtual && !Def;
    if (MD->getParent()->isLambda())
      Link.Callee = lambdaName(Call);
  }
  std::vector<ReachedEffect> Out;
  for (ReachedEffect R : *Callee) {
    if (!keepsCondition(R, Call) || !keepsCallback(R, Call, Ctx))
      continue;
    R.Callback = -1;
    R.Chain.insert(R.Chain.begin(), Link);
    Out.push_back(std::move(R));
  }
  return Out;
}

void CallSummaries::collect(const Stmt *S, bool InLoop, Summary &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (isPeriodicCondition(If->getCond())) {
      collect(If->getCond(), InLoop, Out);
      Summary Inner;
      collect(If->getThen(), InLoop, Inner);
      for (const ReachedEffect &E : Inner)
        if (E.Op.Kind != EffectKind::HostSync && E.Op.Kind != EffectKind::Copy &&
            E.Op.Kind != EffectKind::ModuleCopy)
          merge(Out, E);
      collect(If->getElse(), InLoop, Out);
      return;
    }
    if (int Flag = conditionParam(If->getCond()); Flag >= 0 && !If->getInit()) {
      Summary Inner;
      collect(If->getThen(), InLoop, Inner);
      for (ReachedEffect E : Inner) {
        if (E.WhenParam < 0)
          E.WhenParam = Flag;
        merge(Out, E);
      }
      collect(If->getElse(), InLoop, Out);
      return;
    }
  }
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    std::vector<ReachedEffect> Effects = effectsOfCall(*C);
    conditionOnParam(*C, Effects);
    if (std::optional<ReachedEffect> Copy = copyToOptionsParam(*C))
      Effects.push_back(*Copy);
    for (ReachedEffect E : Effects) {
      E.InLoop |= InLoop;
      merge(Out, E);
    }
  }
  bool IsLoop = isLoop(S, Ctx);
  for (const Stmt *Child : S->children())
    if (!isDeadOperand(S, Child, Ctx))
      collect(Child, InLoop || (IsLoop && isPerIterationPart(S, Child)), Out);
}

std::vector<ReachedEffect> CallSummaries::effectsOfStmt(const Stmt *S) {
  Summary Out;
  collect(S, /*InLoop=*/false, Out);
  return Out;
}

const CallSummaries::Summary &CallSummaries::summaryOf(const FunctionDecl *FD) {
  static const Summary Empty;
  auto It = Done.find(FD);
  if (It != Done.end())
    return It->second;
  if (!InProgress.insert(FD).second)
    return Empty;  // recursion: the outer computation covers it
  Summary S;
  const FunctionDecl *Outer = Current;
  Current = FD;
  collect(FD->getBody(), /*InLoop=*/false, S);
  Current = Outer;
  InProgress.erase(FD);
  return Done[FD] = std::move(S);
}

} // namespace torchtidy
