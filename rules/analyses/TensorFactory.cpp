#include "analyses/TensorFactory.h"

#include "analyses/DeviceExpr.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using llvm::dyn_cast;
using llvm::isa;

namespace torchtidy {

static bool inTorchNamespace(const FunctionDecl *FD) {
  const auto *NS = llvm::dyn_cast<NamespaceDecl>(FD->getDeclContext()->getRedeclContext());
  return NS && NS->getParent()->getRedeclContext()->isTranslationUnit() &&
         (NS->getName() == "torch" || NS->getName() == "at");
}

bool isTensorFactory(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier() || !inTorchNamespace(FD))
    return false;
  return llvm::StringSwitch<bool>(FD->getName())
      .Cases("zeros", "ones", "randn", "rand", "randint", "randperm", true)
      .Cases("empty", "full", "arange", "linspace", "logspace", "eye", true)
      .Cases("from_blob", "tensor", true)
      .Default(false);
}

bool factoryReadsHostData(const FunctionDecl *FD) {
  return FD && (FD->getName() == "from_blob" || FD->getName() == "tensor");
}

bool callNamesDevice(const CallExpr &Call) {
  for (const Expr *Arg : Call.arguments()) {
    if (llvm::isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (mentionsDevice(Arg))
      return true;
  }
  return false;
}

const Expr *opaqueOptionsIn(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *E = dyn_cast<Expr>(S); E && isTensorOptionsType(E->getType())) {
    if (isa<DeclRefExpr, MemberExpr>(E))
      return E;
    if (const auto *C = dyn_cast<CallExpr>(E); C && !isa<CXXMemberCallExpr>(C) &&
                                                 C->getDirectCallee() &&
                                                 !isTorchDecl(C->getDirectCallee()))
      return E;
  }
  for (const Stmt *Child : S->children())
    if (const Expr *Found = opaqueOptionsIn(Child))
      return Found;
  return nullptr;
}

const Expr *opaqueOptionsArg(const CallExpr &Call) {
  for (const Expr *Arg : Call.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg))
      if (const Expr *Found = opaqueOptionsIn(Arg))
        return Found;
  return nullptr;
}

unsigned explicitArgCount(const CallExpr &Call) {
  unsigned N = 0;
  for (const Expr *Arg : Call.arguments())
    N += !llvm::isa<CXXDefaultArgExpr>(Arg);
  return N;
}

} // namespace torchtidy
