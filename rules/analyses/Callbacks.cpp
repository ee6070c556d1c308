#include "analyses/Callbacks.h"
#include "analyses/PlaceFactsState.h"

#include "analyses/VarValues.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace clang;

namespace torchtidy {

using placefacts::Current;

static std::string callbackKey(const std::string &Usr, unsigned I) {
  return "torchtidy-callback:" + Usr + "#" + std::to_string(I) + "@";
}

static bool isCallableType(QualType T) {
  T = T.getNonReferenceType();
  if (T->isFunctionPointerType())
    return true;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getName() == "function";
}

const ParmVarDecl *calledCallableParam(const CallExpr &Call) {
  const Expr *Callee = Call.getCallee();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call))
    Callee = Op->getOperator() == OO_Call && Op->getNumArgs() > 0 ? Op->getArg(0) : nullptr;
  if (const auto *Deref = dyn_cast_or_null<UnaryOperator>(Callee ? Callee->IgnoreParenImpCasts() : nullptr);
      Deref && Deref->getOpcode() == UO_Deref)
    Callee = Deref->getSubExpr();
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(Callee ? Callee->IgnoreParenImpCasts() : nullptr);
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return P && isa<FunctionDecl>(P->getDeclContext()) && isCallableType(P->getType()) ? P : nullptr;
}

// The expression under the conversions into a std::function or a pointer.
static const Expr *beneathConversions(const Expr *E) {
  while (E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (Construct && !isa<CXXTemporaryObjectExpr>(Construct) && Construct->getNumArgs() == 1)
      E = Construct->getArg(0);
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr();
    else if (const auto *Addr = dyn_cast<UnaryOperator>(E); Addr && Addr->getOpcode() == UO_AddrOf)
      E = Addr->getSubExpr();
    else
      return E;
  }
  return nullptr;
}

// A lambda that is not generic: its one call operator is what runs.
static const FunctionDecl *lambdaBody(const Expr *E) {
  const auto *L = dyn_cast_or_null<LambdaExpr>(E);
  return L && !L->isGenericLambda() ? L->getCallOperator() : nullptr;
}

std::optional<HandedCallable> handedCallable(const Expr *Arg) {
  const Expr *E = beneathConversions(Arg);
  if (!E)
    return std::nullopt;
  HandedCallable H{lambdaBody(E), "lambda", Arg->getExprLoc()};
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    H.Name = DRE->getDecl()->getNameAsString();
    if (const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      H.Body = FD;
    else if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()); V && V->isLocalVarDecl() && isUnchanged(*V))
      H.Body = lambdaBody(beneathConversions(V->getInit()));
  }
  const FunctionDecl *Def = nullptr;
  if (!H.Body || !H.Body->hasBody(Def) || !Def)
    return std::nullopt;
  H.Body = Def;
  return H;
}

ChainLink handedLink(const HandedCallable &H) {
  ChainLink L{H.Loc, {}, H.Name};
  L.Handed = true;
  return L;
}

static const ChainLink *handedLinkIn(const std::vector<ChainLink> &Chain) {
  auto It = llvm::find_if(Chain, [](const ChainLink &L) { return L.Handed; });
  return It == Chain.end() ? nullptr : &*It;
}

bool sameHandedLink(const std::vector<ChainLink> &A, const std::vector<ChainLink> &B) {
  const ChainLink *L = handedLinkIn(A), *M = handedLinkIn(B);
  return L && M && L->Loc == M->Loc && L->Elsewhere.File == M->Elsewhere.File &&
         L->Elsewhere.Line == M->Elsewhere.Line && L->Elsewhere.Column == M->Elsewhere.Column;
}

bool keepsCallback(const ReachedEffect &R, const CallExpr &Call, ASTContext &Ctx) {
  std::optional<HandedCallable> H =
      R.Callback < 0 ? std::nullopt : handedCallable(argumentFor(Call, R.Callback));
  const ChainLink *L = handedLinkIn(R.Chain);
  if (!H || !L)
    return true;
  if (L->Loc.isValid())
    return L->Loc == H->Loc;
  // Found by another TU (this one's facts, read back in the callee's
  // summary): the argument's file, line and column.
  PresumedLoc P = Ctx.getSourceManager().getPresumedLoc(Ctx.getSourceManager().getExpansionLoc(H->Loc));
  return P.isValid() && P.getLine() == L->Elsewhere.Line && P.getColumn() == L->Elsewhere.Column &&
         llvm::sys::path::filename(P.getFilename()) == llvm::sys::path::filename(L->Elsewhere.File);
}

std::vector<HandedCallable> callablesHandedHere(const ParmVarDecl &P) {
  std::vector<HandedCallable> Out;
  const auto *FD = dyn_cast<FunctionDecl>(P.getDeclContext());
  if (!Current || !FD)
    return Out;
  auto Calls = Current->index().Calls.find(FD->getCanonicalDecl());
  if (Calls == Current->index().Calls.end())
    return Out;
  for (const CallExpr *C : Calls->second)
    if (std::optional<HandedCallable> H = handedCallable(argumentFor(*C, P.getFunctionScopeIndex())))
      Out.push_back(*H);
  return Out;
}

std::vector<ReachedEffect> callbacksElsewhere(const ParmVarDecl &P) {
  const auto *FD = dyn_cast<FunctionDecl>(P.getDeclContext());
  std::string Usr = FD && FD->isExternallyVisible() ? usrOf(FD) : "";
  std::vector<ReachedEffect> Out;
  if (!Current || !Current->Program || Usr.empty())
    return Out;
  for (const auto &Fact : Current->Program->factsUnder(callbackKey(Usr, P.getFunctionScopeIndex()),
                                                        FactQuestion::Content, "@" + Current->Self))
    Out.insert(Out.end(), Fact.second->begin(), Fact.second->end());
  return Out;
}

void exportCallbacks(CallSummaries &S, FunctionTable &Out,
                     llvm::function_ref<FilePos(SourceLocation)> Where) {
  if (!Current)
    return;
  for (const auto &[FD, Calls] : Current->index().Calls) {
    std::string Usr = FD->isExternallyVisible() ? usrOf(FD) : "";
    for (unsigned I = 0; I < FD->getNumParams() && !Usr.empty(); ++I) {
      if (!isCallableType(FD->getParamDecl(I)->getType()))
        continue;
      for (const CallExpr *C : Calls) {
        std::optional<HandedCallable> H = handedCallable(argumentFor(*C, I));
        if (!H)
          continue;
        std::vector<ReachedEffect> Effects = S.summaryOf(H->Body);
        for (ReachedEffect &E : Effects)
          E.Chain.insert(E.Chain.begin(), handedLink(*H));
        locateElsewhere(Effects, Where);
        for (const ReachedEffect &E : Effects)
          CallSummaries::merge(Out[callbackKey(Usr, I) + Current->Self], E);
      }
    }
  }
}

} // namespace torchtidy
