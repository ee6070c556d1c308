#include "analyses/SyncingOps.h"

#include "analyses/DeviceExpr.h"
#include "analyses/TensorPlace.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy {

namespace {
enum Reason { Value, Copy, Size, Answer, Norm, Print, Index };

struct Entry {
  enum { Method, Function, IntoHost } Kind;
  llvm::StringRef Name;
  const char *What;  // null: shown as '.name()'
  Reason Why;
  int Params = -1;  // the overload's parameters; -1: every overload
};

const Entry Table[] = {
#define SYNCING_METHOD(Name, Why) {Entry::Method, Name, nullptr, Why},
#define SYNCING_OPERATOR(Name, What, Why) {Entry::Method, Name, What, Why},
#define SYNCING_FUNCTION(Name, What, Why) {Entry::Function, Name, What, Why},
#define SYNCING_OVERLOAD(Name, Params, What, Why) {Entry::Function, Name, What, Why, Params},
#define SYNCING_INTO_HOST(Name, What) {Entry::IntoHost, Name, What, Copy},
#include "analyses/SyncingOps.def"
#undef SYNCING_METHOD
#undef SYNCING_OPERATOR
#undef SYNCING_FUNCTION
#undef SYNCING_OVERLOAD
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
  case Index: return "reads the index back to the host";
  }
  return "";
}

static const Entry *find(decltype(Entry::Kind) Kind, llvm::StringRef Name, int Params = -1) {
  for (const Entry &E : Table)
    if (E.Kind == Kind && E.Name == Name && (E.Params < 0 || E.Params == Params))
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

static const Expr *lastTensor(llvm::ArrayRef<const Expr *> Args) {
  for (const Expr *A : llvm::reverse(Args))
    if (isTensorType(A->getType()))
      return A;
  return nullptr;
}

// dest = x / dest.copy_(x) / dest.index_put_(i, x): the last tensor argument.
static std::optional<SyncingOp> intoHost(const Entry &E, const Expr *Dest,
                                         llvm::ArrayRef<const Expr *> Args) {
  // A pinned destination may be written asynchronously (non_blocking).
  const Expr *Base = viewBase(Dest);
  if (!isProvablyOnCpu(Base) || isProvablyPinned(Base))
    return std::nullopt;
  if (const Expr *A = lastTensor(Args))
    return opOf(E, viewBase(A));
  return std::nullopt;
}

// A method of at::Tensor (or a subclass): its name in the table, "operator="
// for the assignment to an rvalue view (cpu_t[i] = x), "operator[]" for
// indexing with a tensor, empty otherwise.
static llvm::StringRef tensorMethodName(const CXXMethodDecl &MD) {
  if (!isTensorType(QualType(MD.getParent()->getTypeForDecl(), 0)))
    return "";
  if (MD.getOverloadedOperator() == OO_Equal)
    return MD.getRefQualifier() == RQ_RValue ? "operator=" : "";
  if (MD.getOverloadedOperator() == OO_Subscript)
    return MD.getNumParams() == 1 && isTensorType(MD.getParamDecl(0)->getType()) ? "operator[]" : "";
  return MD.getIdentifier() ? MD.getName() : "";
}

namespace {
// A call of a method of at::Tensor, split into its name (tensorMethodName),
// object and other arguments.
struct MethodCall {
  llvm::StringRef Name;
  const Expr *Obj = nullptr;
  llvm::ArrayRef<const Expr *> Args;
};
} // namespace

static MethodCall splitMethodCall(const CallExpr &Call, const CXXMethodDecl &MD) {
  MethodCall M{tensorMethodName(MD), nullptr, {Call.getArgs(), Call.getNumArgs()}};
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call))
    M.Obj = MC->getImplicitObjectArgument();
  else if (!M.Args.empty())  // an operator call: the object is the first argument
    M.Obj = M.Args.front(), M.Args = M.Args.drop_front();
  return M;
}

std::optional<std::string> hostToDeviceWrite(const CallExpr &Call) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Call.getDirectCallee());
  if (!MD || !isTorchDecl(MD))
    return std::nullopt;
  MethodCall M = splitMethodCall(Call, *MD);
  const Expr *Src = !M.Name.empty() && find(Entry::IntoHost, M.Name) ? lastTensor(M.Args) : nullptr;
  // From pinned memory, a copy may run asynchronously.
  if (!Src || !isPlacedOnDevice(M.Obj) || !isProvablyOnCpu(Src) ||
      isProvablyPinned(viewBase(Src)))
    return std::nullopt;
  return M.Name == "operator=" ? "assigning a host tensor into a device tensor"
                               : "'." + M.Name.str() + "()' of a host tensor into a device tensor";
}

static const Entry *functionEntry(const FunctionDecl &FD) {
  return isTorchDecl(&FD) ? find(Entry::Function, FD.getQualifiedNameAsString(), FD.getNumParams())
                          : nullptr;
}

std::optional<SyncingOp> syncingFunction(const FunctionDecl &FD) {
  if (const Entry *E = functionEntry(FD))
    return opOf(*E, nullptr);
  return std::nullopt;
}

std::optional<SyncingOp> syncingCall(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !isTorchDecl(FD))
    return std::nullopt;
  llvm::ArrayRef<const Expr *> Args(Call.getArgs(), Call.getNumArgs());
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    MethodCall M = splitMethodCall(Call, *MD);
    if (const Entry *E = M.Name.empty() ? nullptr : find(Entry::IntoHost, M.Name))
      return intoHost(*E, M.Obj, M.Args);
    // An operator reads its tensor argument (the index), a method its object.
    if (const Entry *E = M.Name.empty() ? nullptr : find(Entry::Method, M.Name))
      return opOf(*E, E->What && !M.Args.empty() ? M.Args.front() : M.Obj);
    return std::nullopt;
  }
  const Entry *E = functionEntry(*FD);
  if (!E)
    return std::nullopt;
  // The tensor read: the last tensor argument ('<<' takes the stream first).
  if (const Expr *A = lastTensor(Args))
    return opOf(*E, A);
  // No tensor argument: another '<<' of LibTorch's (a Scalar), or
  // clip_grad_norm_ of a list of parameters, whose device is unknown.
  if (FD->isOverloadedOperator())
    return std::nullopt;
  return opOf(*E, nullptr);
}

} // namespace torchtidy
