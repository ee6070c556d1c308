// What a callable parameter runs (a std::function or a function pointer,
// called as fn(x)): what the program's calls hand it. This TU's calls give
// lambdas and functions whose bodies are here; the other TUs export the
// summaries of theirs under the parameter's key. A template's callable
// parameter needs none of this: its instantiations call the lambda itself.
#pragma once

#include "analyses/ProgramSummary.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

// A callable an argument hands over: a lambda written there or kept in a
// local initialised with one, or a function named there.
struct HandedCallable {
  const clang::FunctionDecl *Body = nullptr;  // the lambda's operator() or the function
  std::string Name;                           // the local's or function's name; "lambda"
  clang::SourceLocation Loc;                  // the argument
};

// What Arg hands over; nothing when it is no such callable or has no body.
std::optional<HandedCallable> handedCallable(const clang::Expr *Arg);

// The callable parameter Call calls; null when it calls something else.
const clang::ParmVarDecl *calledCallableParam(const clang::CallExpr &Call);

// What this TU's calls of P's function hand to P. Needs a live
// PlaceFactsScope (none without one).
std::vector<HandedCallable> callablesHandedHere(const clang::ParmVarDecl &P);

// What the other TUs' callables handed to P do (their summaries, each
// chain starting at the argument). Needs a live PlaceFactsScope.
std::vector<ReachedEffect> callbacksElsewhere(const clang::ParmVarDecl &P);

// The chain link that names the callable H at the argument handing it.
ChainLink handedLink(const HandedCallable &H);

// The chains name the same handed argument.
bool sameHandedLink(const std::vector<ChainLink> &A, const std::vector<ChainLink> &B);

// R, an effect of Call's callee, runs for Call: it is no callback's, or
// Call hands the callable it is in (or something not known here).
bool keepsCallback(const ReachedEffect &R, const clang::CallExpr &Call, clang::ASTContext &Ctx);

// Adds this TU's facts to Out: for each parameter of a function other
// files can name, what the callables this TU's calls hand it do. Needs a
// live PlaceFactsScope.
void exportCallbacks(CallSummaries &S, FunctionTable &Out,
                     llvm::function_ref<FilePos(clang::SourceLocation)> Where);

} // namespace torchtidy
