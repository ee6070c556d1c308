#include "analyses/CallIndex.h"

#include "analyses/DroppedCode.h"
#include "analyses/TorchTypes.h"
#include "analyses/UnresolvedCall.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace torchtidy {

namespace {
class Calls : public RecursiveASTVisitor<Calls> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee()) {
      Index.Calls[FD->getCanonicalDecl()].push_back(C);
      if (const auto *DRE = dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreParenImpCasts()))
        Callees.insert(DRE);
      if (const FunctionDecl *Forward = holderForward(*C))
        Index.Calls[Forward->getCanonicalDecl()].push_back(C);
      wrapped(FD, {C->getArgs(), C->getNumArgs()});
    }
    // A call Clang could not resolve counts as a call of each function it
    // may call: what it passes must be proved like any other call's.
    for (const FunctionDecl *FD : unresolvedCallees(*C))
      Index.Calls[FD->getCanonicalDecl()].push_back(C);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    wrapped(C->getConstructor(), {C->getArgs(), C->getNumArgs()});
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      Index.Defined.push_back(FD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D->getDecl()))
      Named.push_back({D, FD->getCanonicalDecl()});
    return true;
  }
  CallIndex finish() {
    for (const auto &[D, FD] : Named)
      if (!Callees.count(D))
        Index.AddressTaken.insert(FD);
    return std::move(Index);
  }

private:
  // A module put into a Sequential or an AnyModule has its forward called
  // by LibTorch, with arguments the code does not show.
  void wrapped(const FunctionDecl *FD, llvm::ArrayRef<const Expr *> Args) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    const IdentifierInfo *Class = MD ? MD->getParent()->getIdentifier() : nullptr;
    if (!Class || !isTorchDecl(MD) ||
        !llvm::is_contained({"Sequential", "SequentialImpl", "AnyModule"}, Class->getName()))
      return;
    for (const Expr *A : Args)
      if (const CXXRecordDecl *Module = heldModule(A->getType()))
        for (const CXXMethodDecl *Forward : Module->methods())
          if (Forward->getIdentifier() && Forward->getName() == "forward")
            Index.AddressTaken.insert(Forward->getCanonicalDecl());
  }

  CallIndex Index;
  std::set<const DeclRefExpr *> Callees;
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> Named;
};

class UnresolvedNames : public RecursiveASTVisitor<UnresolvedNames> {
public:
  bool VisitOverloadExpr(OverloadExpr *E) { return add(E->getName()); }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) { return add(E->getMember()); }
  bool VisitDependentScopeDeclRefExpr(DependentScopeDeclRefExpr *E) { return add(E->getDeclName()); }
  std::set<std::string> Found;

private:
  bool add(DeclarationName Name) {
    if (Name.isIdentifier())
      Found.insert(Name.getAsIdentifierInfo()->getName().str());
    return true;
  }
};
} // namespace

CallIndex indexCalls(ASTContext &Ctx) {
  Calls V;
  for (Decl *D : Ctx.getTraversalScope())
    V.TraverseDecl(D);
  return V.finish();
}

std::set<std::string> unresolvedCallNames(ASTContext &Ctx, llvm::ArrayRef<SourceLocation> Errors) {
  UnresolvedNames Names;
  for (Decl *D : Ctx.getTraversalScope())
    Names.TraverseDecl(D);
  for (const std::optional<DroppedCode> &D : droppedCode(Ctx, Errors))
    if (std::optional<std::vector<Token>> Tokens =
            D ? rawTokens(Ctx.getSourceManager(), Ctx.getLangOpts(), D->Text) : std::nullopt)
      for (const Token &T : *Tokens)
        if (T.is(tok::raw_identifier))
          Names.Found.insert(T.getRawIdentifier().str());
  return std::move(Names.Found);
}

} // namespace torchtidy
