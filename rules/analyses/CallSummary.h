// What a call does per execution, for the loop-aware checks: host syncs,
// host-to-device copies, backward, optimizer step, zero_grad, emptyCache,
// device synchronisation, and other tensor work (ops, forwards). A LibTorch op is
// classified directly; a call of a function, lambda or method defined in the
// analysed code (its own headers included, template instantiations too) uses
// that function's summary, which composes through its calls. Cycles stop.
#pragma once

#include "framework/Check.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace torchtidy {

enum class EffectKind {
  HostSync, Copy, ModuleCopy, Backward, Step, ZeroGrad, EmptyCache,
  DeviceSync,  // torch::cuda::synchronize, cudaDeviceSynchronize, stream.synchronize()
  TensorWork   // any other LibTorch op that yields a tensor, a module's forward
};

// A LibTorch operation found in the code.
struct Effect {
  EffectKind Kind;
  const clang::Expr *Site = nullptr;  // the op's call expression
  clang::SourceLocation Loc;          // where to point at it
  FilePos Elsewhere;                  // instead of Loc, for an op in another file
  std::string What;                   // "'.item()'", "'torch::nonzero'"
  std::string Detail;                 // check-specific: for copies, why it blocks
};

// What a parameter decides about an op of its function.
enum class ParamCondition {
  Flag,           // a bool: the op runs only when it is true (if (show) draw(..))
  OptionsDevice,  // TensorOptions the op copies to (x.to(opts)): a copy only when they carry a device
  NotOnDevice,    // the tensor the op copies (x.to(device)): a copy only when it is not there already
  NotOnHost       // the tensor the op reads (x.cpu()): a sync only when it is not on the host already
};

// One step down a call chain.
struct ChainLink {
  clang::SourceLocation Loc;     // the call
  FilePos Elsewhere;             // instead of Loc, for a call in another file
  std::string Callee;            // its name
  bool Virtual = false;          // dispatched virtually: the static callee's summary was used
  bool Overriders = false;       // ... or, with no body here, its overriders' too
  bool Handed = false;           // the callable an argument (at Loc) hands the previous link's parameter
};

// An effect reached through calls: Chain[0] is the call at the site the
// caller looks at, the last link calls the function holding Op.
struct ReachedEffect {
  Effect Op;
  std::vector<ChainLink> Chain;
  // The op runs in a loop below the statement looked at (in a callee, or in
  // a nested loop): the per-iteration checks report it at that loop instead.
  bool InLoop = false;
  // The op runs only as the function's parameter of this index decides;
  // each call settles it with its argument.
  int WhenParam = -1;
  ParamCondition When = ParamCondition::Flag;
  // The op is in a callable that a call handed the function's callable
  // parameter of this index (its chain's Handed link names the argument):
  // each call keeps only what it hands itself.
  int Callback = -1;
};

// The effect of one call expression itself when it is a LibTorch op.
std::optional<Effect> classifyCall(const clang::CallExpr &Call, clang::ASTContext &Ctx);

// Is the named bool parameter of FD (the callee) given as a constant true?
bool boolArgTrue(const clang::CallExpr &Call, const clang::FunctionDecl *FD,
                 llvm::StringRef Param, clang::ASTContext &Ctx);

// Where a call is reported: the method name for member calls, the operator
// for '<<', the start otherwise.
clang::SourceLocation callLoc(const clang::CallExpr &Call);

// The methods MD overrides, directly or further up.
void overriddenMethods(const clang::CXXMethodDecl *MD,
                       std::vector<const clang::CXXMethodDecl *> &Out);

class ProgramSummaries;

class CallSummaries {
public:
  // Program: what functions without a body here do, from the other files.
  CallSummaries(clang::ASTContext &Ctx, ProgramSummaries *Program = nullptr)
      : Ctx(Ctx), Program(Program) {}
  clang::ASTContext &context() const { return Ctx; }

  // What the call does, directly or through the callee's body; the first
  // effect of each kind, in source order. Host syncs and copies under a
  // periodic guard (if (i % k == 0)) inside a callee are left out: they do
  // not run every time.
  std::vector<ReachedEffect> effectsOfCall(const clang::CallExpr &Call);

  // Effects of every call in the statement (not in lambdas defined there).
  std::vector<ReachedEffect> effectsOfStmt(const clang::Stmt *S);

  using Summary = std::vector<ReachedEffect>;
  // What a call of the defined function FD does.
  const Summary &summaryOf(const clang::FunctionDecl *FD);
  // Adds E unless Out has an effect of its kind (and loop nesting) already,
  // under no flag or the same one.
  static void merge(Summary &Out, const ReachedEffect &E);

private:
  std::vector<ReachedEffect> effectsOfCallee(const clang::CallExpr &Call,
                                             const clang::FunctionDecl *FD);
  std::vector<ReachedEffect> effectsOfEveryCallee(const clang::CallExpr &Call);
  std::vector<ReachedEffect> effectsOfCallback(const clang::CallExpr &Call, const clang::ParmVarDecl &P);
  void collect(const clang::Stmt *S, bool InLoop, Summary &Out);
  int conditionParam(const clang::Expr *E, ParamCondition When = ParamCondition::Flag) const;
  void conditionOnParam(const clang::CallExpr &Call, std::vector<ReachedEffect> &Effects) const;
  std::optional<ReachedEffect> copyToOptionsParam(const clang::CallExpr &Call) const;
  bool keepsCondition(ReachedEffect &R, const clang::CallExpr &Call) const;

  clang::ASTContext &Ctx;
  ProgramSummaries *Program;
  // The definitions in this TU of the methods overriding a method.
  const std::vector<const clang::FunctionDecl *> &overridersHere(const clang::CXXMethodDecl &MD);
  std::optional<std::map<const clang::CXXMethodDecl *, std::vector<const clang::FunctionDecl *>>>
      OverriderIndex;
  std::map<const clang::FunctionDecl *, Summary> Done;
  std::set<const clang::FunctionDecl *> InProgress;
  const clang::FunctionDecl *Current = nullptr; // the body being summarised
};

} // namespace torchtidy
