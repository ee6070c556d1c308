#include "checks/copy_in_loop.h"

#include "analyses/CudaText.h"
#include "analyses/DroppedCode.h"
#include "analyses/LoopContext.h"
#include "analyses/LoopCheck.h"
#include "analyses/DeviceExpr.h"
#include "analyses/PlaceFacts.h"
#include "analyses/PlaceFlow.h"
#include "analyses/TorchTypes.h"
#include "analyses/VarValues.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

const RuleInfo CopyInLoopCheck::Info = {
    "torch-copy-in-loop",
    "a host-to-device copy on every loop iteration that blocks the host",
    Level::Warning,
    Precision::Medium,
    {"performance"},
    {{"IncludePeriodic", "false",
      "also flag copies guarded by a periodic condition on the loop counter (if (i % k == 0))"}},
    /*NeedsCuda=*/true,
    RuntimeSignal::Transfer};

void CopyInLoopCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"), this);
}

// The variable x.to(..) or x.cuda() copies (a write into a tensor names its
// destination, not what it copies).
static const VarDecl *copiedVar(const Expr *Site) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Site);
  if (!MC || !(isTensorMethod(MC->getMethodDecl(), "to") || isTensorMethod(MC->getMethodDecl(), "cuda")))
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

static bool inLoop(SourceLocation L, const Stmt &Loop, const SourceManager &SM) {
  SourceRange R = Loop.getSourceRange();
  L = SM.getExpansionLoc(L);
  return SM.isBeforeInTranslationUnit(R.getBegin(), L) &&
         SM.isBeforeInTranslationUnit(L, SM.getExpansionLoc(R.getEnd()));
}

// v = v.to(d) in the loop, v declared before it and given no other value
// in it, d the same on every iteration: from the second iteration on v is
// on d already and .to(d) copies nothing.
static bool copiesOnce(const VarDecl &V, const Expr &Site, const Stmt &Loop, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto InLoop = [&](SourceLocation L) { return inLoop(L, Loop, SM); };
  std::vector<HeldValue> Values;
  if (InLoop(V.getLocation()) || !allAssignedValues(V, Values))
    return false;
  bool Itself = false;
  for (const HeldValue &H : Values)
    if (InLoop(H.where()->getBeginLoc())) {
      if (H.Element >= 0 || H.Call || H.E->IgnoreImplicit() != &Site)
        return false;
      Itself = true;
    }
  const auto *Call = cast<CallExpr>(&Site);
  if (!Itself || Call->getNumArgs() == 0)
    return false;
  const auto *Dest = dyn_cast<DeclRefExpr>(innerDeviceExpr(Call->getArg(0))->IgnoreParenImpCasts());
  return Dest && (isa<EnumConstantDecl>(Dest->getDecl()) ||
                  isLoopInvariant(dyn_cast<VarDecl>(Dest->getDecl()), &Loop, Ctx));
}

// for (auto &p : model->parameters()) p = p.to(device): each parameter is
// moved once, as module->to(device) would, unless the loop runs in another.
static bool movesModuleState(const VarDecl &V, const Stmt &Loop, ASTContext &Ctx) {
  const auto *For = dyn_cast<CXXForRangeStmt>(&Loop);
  if (!For || For->getLoopVariable() != &V || loopContextOf(Loop, Ctx))
    return false;
  const auto *Range = dyn_cast<CXXMemberCallExpr>(For->getRangeInit()->IgnoreImplicit());
  const CXXMethodDecl *MD = Range ? Range->getMethodDecl() : nullptr;
  return MD && MD->getIdentifier() && isModuleClass(MD->getParent()) && isTorchDecl(MD) &&
         (MD->getName() == "parameters" || MD->getName() == "buffers");
}

// A local container its function declares before Loop and returns (the
// copies outlive the call, as prepared data does; a container used up in
// the call, torch::cat(v), is work of every call).
static bool containerBefore(const Expr *E, const Stmt &Loop, ASTContext &Ctx) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const auto *FD = V ? dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()) : nullptr;
  return FD && V->isLocalVarDecl() && !inLoop(V->getLocation(), Loop, Ctx.getSourceManager()) &&
         place::everyReturn(*FD, [&](const Expr *R) {
           R = R->IgnoreImplicit()->IgnoreParens();
           if (const auto *Move = dyn_cast<CXXConstructExpr>(R); Move && Move->getNumArgs() == 1)
             R = Move->getArg(0)->IgnoreImplicit()->IgnoreParens();
           const auto *Ret = dyn_cast<DeclRefExpr>(R);
           return Ret && Ret->getDecl() == V;
         });
}

// The copy (or a tensor method's result of it, w.cuda().unsqueeze(0)) is
// kept in a container declared before Loop: pushed into it, or assigned to
// one of its elements.
static bool keptInContainer(const Expr &Copy, const Stmt &Loop, ASTContext &Ctx) {
  const Expr *E = &Copy;
  for (int Steps = 0; Steps < 16; ++Steps) {
    auto Ps = Ctx.getParents(*E);
    const auto *P = Ps.size() == 1 ? Ps[0].get<Expr>() : nullptr;
    if (!P)
      return false;
    const auto *C = dyn_cast<CXXConstructExpr>(P);
    if (isa<ImplicitCastExpr, ParenExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
            ExprWithCleanups, MemberExpr>(P) ||
        (C && C->getNumArgs() == 1)) {
      E = P;
      continue;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
      const auto *El = dyn_cast<CXXOperatorCallExpr>(Op->getArg(0)->IgnoreParenImpCasts());
      return Op->getOperator() == OO_Equal && Op->getArg(1) == E && El &&
             El->getOperator() == OO_Subscript && containerBefore(El->getArg(0), Loop, Ctx);
    }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(P);
    const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
    if (!MD || !MD->getIdentifier())
      return false;
    if (llvm::is_contained(MC->arguments(), E))
      return llvm::is_contained({"push_back", "emplace_back", "insert"}, MD->getName()) &&
             containerBefore(MC->getImplicitObjectArgument(), Loop, Ctx);
    if (!isTensorMethod(MD, MD->getName()))
      return false;
    E = P;
  }
  return false;
}

// What a module's ->to() moves, past its holder's ->, * and ptr() or get().
static const Expr *movedObject(const Expr *E) {
  for (int Steps = 0; E && Steps < 8; ++Steps) {
    E = E->IgnoreImplicit()->IgnoreParens();
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
    const auto *Call = dyn_cast<CXXMemberCallExpr>(E);
    const CXXMethodDecl *MD = Call ? Call->getMethodDecl() : nullptr;
    if (Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star))
      E = Op->getArg(0);
    else if (MD && MD->getIdentifier() && llvm::is_contained({"ptr", "get"}, MD->getName()))
      E = Call->getImplicitObjectArgument();
    else
      return E;
  }
  return nullptr;
}

// The module a ->to() moves is an element of a container declared before
// Loop (out.back().head.ptr()->to(d)), or the loop's own element.
static bool moduleOfContainer(const CallExpr &Move, const Stmt &Loop, ASTContext &Ctx) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&Move);
  const Expr *E = MC ? movedObject(MC->getImplicitObjectArgument()) : nullptr;
  for (int Steps = 0; E && Steps < 16; ++Steps) {
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
      return Op->getOperator() == OO_Subscript && containerBefore(Op->getArg(0), Loop, Ctx);
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = Call->getMethodDecl();
      return MD && MD->getIdentifier() &&
             llvm::is_contained({"back", "front", "at"}, MD->getName()) &&
             containerBefore(Call->getImplicitObjectArgument(), Loop, Ctx);
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      E = movedObject(ME->getBase());
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *For = dyn_cast<CXXForRangeStmt>(&Loop);
    return DRE && For && DRE->getDecl() == For->getLoopVariable() &&
           containerBefore(For->getRangeInit(), Loop, Ctx);
  }
  return false;
}

// A module value made anew: a construction other than a copy (Net(cfg),
// std::make_shared<NetImpl>()), or what a function of the code returns by
// value (make_model(cfg)).
static bool freshModule(const Expr *E) {
  E = E ? E->IgnoreImplicit()->IgnoreParens() : nullptr;
  if (const auto *C = dyn_cast_or_null<CXXConstructExpr>(E)) {
    if (C->getConstructor()->isCopyOrMoveConstructor())
      return C->getNumArgs() == 1 && freshModule(C->getArg(0));
    return true;
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD && !FD->getReturnType()->isReferenceType() && !FD->getReturnType()->isPointerType() &&
         (!isTorchDecl(FD) || FD->isInStdNamespace());
}

// The statement before the one holding E in its block puts a new module
// into Container (v.push_back(Net(cfg)); v.back()->to(d)).
static bool justPushed(const Expr &Container, const Expr &E, ASTContext &Ctx) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Container.IgnoreParenImpCasts());
  const auto *Field = dyn_cast<MemberExpr>(Container.IgnoreParenImpCasts());
  const ValueDecl *D = Ref ? Ref->getDecl() : Field ? Field->getMemberDecl() : nullptr;
  const Stmt *S = &E;
  for (int Steps = 0; D && Steps < 16; ++Steps) {
    auto Ps = Ctx.getParents(*S);
    if (Ps.size() != 1)
      return false;
    if (const auto *Block = Ps[0].get<CompoundStmt>()) {
      const Stmt *Prev = nullptr;
      for (const Stmt *Sib : Block->body()) {
        if (Sib == S)
          break;
        Prev = Sib;
      }
      const auto *PrevE = dyn_cast_or_null<Expr>(Prev);
      const auto *Push = dyn_cast_or_null<CXXMemberCallExpr>(PrevE ? PrevE->IgnoreImplicit() : nullptr);
      const CXXMethodDecl *MD = Push ? Push->getMethodDecl() : nullptr;
      const auto *To = Push ? Push->getImplicitObjectArgument()->IgnoreParenImpCasts() : nullptr;
      const auto *ToRef = dyn_cast_or_null<DeclRefExpr>(To);
      const auto *ToField = dyn_cast_or_null<MemberExpr>(To);
      return MD && MD->getIdentifier() && Push->getNumArgs() == 1 &&
             llvm::is_contained({"push_back", "emplace_back"}, MD->getName()) &&
             (ToRef ? ToRef->getDecl() : ToField ? ToField->getMemberDecl() : nullptr) == D &&
             freshModule(Push->getArg(0));
    }
    S = Ps[0].get<Stmt>();
    if (!S)
      return false;
  }
  return false;
}

// The module a ->to() moves was made in this iteration of Loop: a value
// declared in it and made anew, or the element just put into a container.
// Moving it is part of making it, once per module (a model loaded per
// checkpoint, copies made for each worker).
static bool madeInIteration(const Expr *Move, const Stmt &Loop, ASTContext &Ctx) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(Move);
  const Expr *E = MC ? movedObject(MC->getImplicitObjectArgument()) : nullptr;
  if (const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = Call->getMethodDecl();
    return MD && MD->getIdentifier() && MD->getName() == "back" &&
           justPushed(*Call->getImplicitObjectArgument(), *Move, Ctx);
  }
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return V && V->isLocalVarDecl() && !V->getType()->isReferenceType() &&
         inLoop(V->getLocation(), Loop, Ctx.getSourceManager()) && freshModule(V->getInit());
}

// A loop in no other, of a function the program calls only outside loops,
// that keeps each iteration's copy in a container it returns
// (out.push_back(w.cuda()); return out;) or moves the modules of one: it
// prepares each copy once.
static bool preparesOnce(const ReachedEffect &R, const Stmt &Loop, ASTContext &Ctx) {
  const auto *Site = dyn_cast_or_null<CallExpr>(R.Op.Site);  // none when made in another file
  if (!Site || !R.Chain.empty() || loopContextOf(Loop, Ctx))
    return false;
  const FunctionDecl *FD = enclosingFunction(Loop, Ctx);
  if (!FD || !calledOnlyOutsideLoops(*FD))
    return false;
  return R.Op.Kind == EffectKind::ModuleCopy ? moduleOfContainer(*Site, Loop, Ctx)
                                             : keptInContainer(*Site, Loop, Ctx);
}

// The message for Copy, made on every iteration.
static std::string perIteration(const std::string &Copy) {
  return Copy + ", on every iteration; on a CUDA device pin the batch (pin_memory() throws on a "
                "CPU-only LibTorch: if (device.is_cuda()) batch = batch.pin_memory();) and pass "
                "non_blocking=true, or move data that does not change once before the loop";
}

void CopyInLoopCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  LoopContext LC = loopContextOf(*Call, Ctx);
  if (!LC || LC.DispatchArm || (LC.PeriodicGuard && !Options.getBool("IncludePeriodic")))
    return;
  for (const ReachedEffect &R : effectsAtCall(*Call, Ctx)) {
    if (R.InLoop || (R.Op.Kind != EffectKind::Copy && R.Op.Kind != EffectKind::ModuleCopy))
      continue;
    const VarDecl *V = R.Chain.empty() ? copiedVar(R.Op.Site) : nullptr;
    if ((V && (copiesOnce(*V, *R.Op.Site, *LC.Loop, Ctx) || movesModuleState(*V, *LC.Loop, Ctx))) ||
        preparesOnce(R, *LC.Loop, Ctx) ||
        (R.Op.Kind == EffectKind::ModuleCopy && R.Chain.empty() &&
         madeInIteration(R.Op.Site, *LC.Loop, Ctx)))
      continue;
    std::string Msg;
    if (R.Op.Kind == EffectKind::ModuleCopy) {
      Msg = (R.Chain.empty() ? std::string("'->to()' on a module")
                             : "call to '" + R.Chain.front().Callee + "' moves a module, which") +
            " copies every parameter and buffer to the device on every iteration; move the "
            "module once before the loop";
    } else {
      if (V && isLoopInvariant(V, LC.Loop, Ctx))
        Msg = R.Op.What + " copies '" + V->getNameAsString() +
              "', which is defined outside the loop and does not change in it, to the device "
              "on every iteration; move it once before the loop";
      else
        Msg = perIteration((R.Chain.empty() ? R.Op.What
                                            : "call to '" + R.Chain.front().Callee + "' runs " +
                                                  R.Op.What + ", which") +
                           " " + R.Op.Detail);
    }
    if (inDeadCode(*Call, Ctx))
      return;
    DiagBuilder D = diag(*Result.SourceManager, reportLoc(R), Msg);
    addChainNotes(D, R, "the copy " + R.Op.What + " is made here");
    addLoopNotes(D, LC);
    return;
  }
}

// A '.cuda()' or '.to(torch::kCUDA)' in code Clang dropped around an error
// is not in the AST: it is read from the tokens (as the hard-coded device
// check reads it) when the kept statement around it runs on every
// iteration of a loop, unless the AST has that call.
void CopyInLoopCheck::onEndOfTranslationUnit(ASTContext &Ctx, llvm::ArrayRef<SourceLocation> Errors) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<SourceLocation> Reported; // errors in the same dropped code
  for (const std::optional<DroppedCode> &D : droppedCode(Ctx, Errors)) {
    // Around a loop itself, the text may be its condition, run once more.
    if (!D || !D->Around || isLoop(D->Around, Ctx))
      continue;
    LoopContext LC = loopContextOf(*D->Around, Ctx);
    if (!LC || LC.DispatchArm || (LC.PeriodicGuard && !Options.getBool("IncludePeriodic")) ||
        inDeadCode(*D->Around, Ctx))
      continue;
    llvm::DenseSet<SourceLocation> InAst = D->Kept ? memberNamesIn(*D->Kept, SM)
                                                   : llvm::DenseSet<SourceLocation>();
    CudaInText Cuda = cudaInText(SM, Ctx.getLangOpts(), D->Text);
    std::vector<std::pair<CudaInText::Call, std::string>> Copies;
    for (const CudaInText::Call &C : Cuda.CudaCalls)
      Copies.push_back({C, "'.cuda()'"});
    for (const CudaInText::Call &M : Cuda.Moves)
      Copies.push_back({M, "'.to(torch::kCUDA)'"});
    for (const auto &[C, What] : Copies) {
      SourceLocation Loc = C.Name;
      if ((C.AfterModulo && !Options.getBool("IncludePeriodic")) || InAst.contains(Loc) ||
          !Reported.insert(Loc).second)
        continue;
      DiagBuilder Diag = diag(SM, Loc, perIteration(What + " is a blocking copy from host to device"));
      Diag.note(Loc, "read from code that did not compile, which Clang left out");
      addLoopNotes(Diag, LC);
    }
  }
  LoopCheck::onEndOfTranslationUnit(Ctx, Errors);
}

} // namespace torchtidy
