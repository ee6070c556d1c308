#include "analyses/SyncingOps.h"

#include "analyses/DeviceExpr.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy {

namespace {
enum Reason { Value, Copy, Size, Answer, Norm, Print };

struct Entry {
  enum { Method, Function, IntoHost } Kind;
  llvm::StringRef Name;
  const char *What;  // null: shown as '.name()'
  Reason Why;
};

const Entry Table[] = {
#define SYNCING_METHOD(Name, Why) {Entry::Method, Name, nullptr, Why},
#define SYNCING_FUNCTION(Name, What, Why) {Entry::Function, Name, What, Why},
#define SYNCING_INTO_HOST(Name, What) {Entry::IntoHost, Name, What, Copy},
#include "analyses/SyncingOps.def"
#undef SYNCING_METHOD
#undef SYNCING_FUNCTION
#undef SYNCING_INTO_HOST
};
} // namespace

static const char *detail(Reason R) {
  switch (R) {
  case Value: return "copies the value to the host";
  case Copy: return "copies the tensor to the host";
  case Size: return "reads the data back to size its result";
  case Answer: return "reads the data back to compute its answer";
  case Norm: return "reads the total norm back to the host to return it as a double";
  case Print: return "copies it to the host to print it";
  }
  return "";
}

static const Entry *find(decltype(Entry::Kind) Kind, llvm::StringRef Name) {
  for (const Entry &E : Table)
    if (E.Kind == Kind && E.Name == Name)
      return &E;
  return nullptr;
}

static SyncingOp opOf(const Entry &E, const Expr *Read) {
  return {E.What ? std::string(E.What) : "'." + E.Name.str() + "()'", detail(E.Why), Read};
}

std::optional<SyncingOp> syncingMethod(llvm::StringRef Name) {
  if (const Entry *E = find(Entry::Method, Name))
    return opOf(*E, nullptr);
  return std::nullopt;
}

// The tensor a view is taken of: t for t[i], t.select(..), t.index(..) and
// the like, which share t's storage and device.
static const Expr *viewBase(const Expr *E) {
  static const llvm::StringRef ViewMethods[] = {"select", "index", "narrow", "slice", "view"};
  for (;;) {
    E = ignoreTensorWrappers(E);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
      if (Op->getOperator() == OO_Subscript && isTorchDecl(Op->getDirectCallee())) {
        E = Op->getArg(0);
        continue;
      }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
    if (!MD || !MD->getIdentifier() ||
        !llvm::is_contained(ViewMethods, MD->getName()) ||
        !isTensorMethod(MD, MD->getName()))
      return E;
    E = MC->getImplicitObjectArgument();
  }
}

// dest = x / dest.copy_(x) / dest.index_put_(i, x): the last tensor argument.
static std::optional<SyncingOp> intoHost(const Entry &E, const Expr *Dest,
                                         llvm::ArrayRef<const Expr *> Args) {
  // A pinned destination may be written asynchronously (non_blocking).
  const Expr *Base = viewBase(Dest);
  if (!isProvablyOnCpu(Base) || isProvablyPinned(Base))
    return std::nullopt;
  for (const Expr *A : llvm::reverse(Args))
    if (isTensorType(A->getType()))
      return opOf(E, viewBase(A));
  return std::nullopt;
}

// A method of at::Tensor (or a subclass): its name in the table, "operator="
// for the assignment to an rvalue view (cpu_t[i] = x), empty otherwise.
static llvm::StringRef tensorMethodName(const CXXMethodDecl &MD) {
  if (!isTensorType(QualType(MD.getParent()->getTypeForDecl(), 0)))
    return "";
  if (MD.getOverloadedOperator() == OO_Equal)
    return MD.getRefQualifier() == RQ_RValue ? "operator=" : "";
  return MD.getIdentifier() ? MD.getName() : "";
}

std::optional<SyncingOp> syncingCall(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !isTorchDecl(FD))
    return std::nullopt;
  llvm::ArrayRef<const Expr *> Args(Call.getArgs(), Call.getNumArgs());
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    llvm::StringRef N = tensorMethodName(*MD);
    const Expr *Obj = nullptr;
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call))
      Obj = MC->getImplicitObjectArgument();
    else if (!Args.empty())  // an operator call: the object is the first argument
      Obj = Args.front(), Args = Args.drop_front();
    if (const Entry *E = N.empty() ? nullptr : find(Entry::IntoHost, N))
      return intoHost(*E, Obj, Args);
    if (const Entry *E = N.empty() ? nullptr : find(Entry::Method, N))
      return opOf(*E, Obj);
    return std::nullopt;
  }
  const Entry *E = find(Entry::Function, FD->getQualifiedNameAsString());
  if (!E)
    return std::nullopt;
  // The tensor read: the last tensor argument ('<<' takes the stream first).
  for (const Expr *A : llvm::reverse(Args))
    if (isTensorType(A->getType()))
      return opOf(*E, A);
  // No tensor argument: another '<<' of LibTorch's (a Scalar), or
  // clip_grad_norm_ of a list of parameters, whose device is unknown.
  if (FD->isOverloadedOperator())
    return std::nullopt;
  return opOf(*E, nullptr);
}

} // namespace torchtidy
