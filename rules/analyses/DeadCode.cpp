#include "analyses/DeadCode.h"

#include "analyses/PlaceFacts.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

using namespace clang;

namespace torchtidy {

namespace {
// Who refers to each function with internal linkage: the functions whose
// bodies (lambdas in them included) name it; null for a reference from
// outside any function (a global's initialiser), which keeps it alive.
class References : public RecursiveASTVisitor<References> {
public:
  explicit References(ASTContext &Ctx) : Ctx(Ctx) {}

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    const auto *FD = dyn_cast<FunctionDecl>(D);
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    if (!FD || (MD && MD->getParent()->isLambda()))
      return RecursiveASTVisitor::TraverseDecl(D);
    if (FD->doesThisDeclarationHaveABody() && !FD->isExternallyVisible())
      Defined.push_back(FD->getCanonicalDecl());
    const FunctionDecl *Outer = Current;
    Current = FD->getCanonicalDecl();
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    Current = Outer;
    return Result;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) { return refer(E->getDecl()); }
  bool VisitMemberExpr(MemberExpr *E) { return refer(E->getMemberDecl()); }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) { return refer(E->getConstructor()); }

  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const FunctionDecl *, 2>> By;
  std::vector<const FunctionDecl *> Defined;  // with internal linkage

private:
  bool refer(const Decl *D) {
    const auto *FD = D ? D->getAsFunction() : nullptr;
    if (FD && !FD->isExternallyVisible())
      By[FD->getCanonicalDecl()].push_back(Current);
    return true;
  }
  ASTContext &Ctx;
  const FunctionDecl *Current = nullptr;
};
} // namespace

// A template, or a member of a class template, with internal linkage and no
// instantiation: only this file could instantiate it, and it does not.
static bool isUninstantiatedTemplate(const FunctionDecl &FD) {
  if (FD.isExternallyVisible())
    return false;
  if (const FunctionTemplateDecl *T = FD.getDescribedFunctionTemplate())
    return T->specializations().empty();
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  const ClassTemplateDecl *C = MD ? MD->getParent()->getDescribedClassTemplate() : nullptr;
  return C && C->specializations().empty();
}

DeadCode::DeadCode(ASTContext &Ctx) : Ctx(Ctx) {
  References Refs(Ctx);
  Refs.TraverseAST(Ctx);
  // One that nothing names is dead too, unless errors may have dropped the
  // code that did; constructors, destructors and virtual methods are called
  // without being named.
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    for (const FunctionDecl *FD : Refs.Defined) {
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (!FD->isReferenced() && !Refs.By.count(FD) && !FD->isMain() &&
          !(MD && (MD->isVirtual() || isa<CXXConstructorDecl, CXXDestructorDecl, CXXConversionDecl>(MD))))
        Dead.insert(FD);
    }
  // A function with internal linkage is dead when every reference to it is
  // in a dead function; repeat until nothing changes.
  auto IsDead = [&](const FunctionDecl *R) {
    return R && (isUninstantiatedTemplate(*R) || Dead.contains(R));
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[Target, Referrers] : Refs.By)
      if (!Dead.contains(Target) && llvm::all_of(Referrers, IsDead)) {
        Dead.insert(Target);
        Changed = true;
      }
  }
}

bool DeadCode::contains(const Stmt &S) const {
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &P = Parents[0];
    if (const auto *FD = P.get<FunctionDecl>()) {
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (!MD || !MD->getParent()->isLambda())
        return isUninstantiatedTemplate(*FD) || Dead.contains(FD->getCanonicalDecl()) ||
               uncalledInProgram(*FD);
    }
    Parents = Ctx.getParents(P);
  }
  return false;
}

} // namespace torchtidy
