// Loop context shared by the loop-aware checks: is a statement run once per
// iteration of a for / range-for / while / do loop, which loop (a constant
// false condition, as in the do { ... } while (0) of macros, makes none), is it under a
// periodic guard on the loop counter (if (i % k == 0)), is a variable
// loop-invariant (declared outside the loop and not assigned in it).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include <optional>

namespace torchtidy {

struct LoopContext {
  // The innermost loop that runs the statement on each iteration: the
  // statement is in its body, its condition or its increment (not in a for
  // init or a range-for's range). Null when none within the enclosing
  // function or lambda.
  const clang::Stmt *Loop = nullptr;
  // An if between the statement and that loop whose condition tests a
  // remainder (i % k == 0) and the statement is in its then-branch.
  const clang::IfStmt *PeriodicGuard = nullptr;
  // The statement is in a lambda kept in a variable of the loop's body and
  // called there (a minibatch step written as a lambda): the loop's own code,
  // run through this call.
  const clang::CallExpr *Via = nullptr;
  // ... or handed there to code that runs it (lbfgs.step(closure)).
  bool ViaHandOff = false;
  // An if of an else-if chain, or a switch, that dispatches on a value of
  // the iteration's own (if (cmd.name == "SAVE") ... else if (cmd.name ==
  // "RUN") ..., for a cmd of the loop) and the statement is in one of its
  // arms: it runs for the iterations whose value selects that arm, as a
  // command interpreter runs each command's work, not on every iteration.
  const clang::Stmt *DispatchArm = nullptr;

  explicit operator bool() const { return Loop != nullptr; }
};

LoopContext loopContextOf(const clang::Stmt &S, clang::ASTContext &Ctx);

// Call calls a lambda whose body is its loop's own code (LoopContext::Via):
// the per-iteration checks report that body's ops where they are written,
// not at the call.
bool callsLoopLambda(const clang::CallExpr &Call, clang::ASTContext &Ctx);

// The value of a constant bool expression (a loop's false, a flag argument);
// none when it is not one.
std::optional<bool> constantBool(const clang::Expr *E, clang::ASTContext &Ctx);

// S is a for / range-for / while / do whose body can run more than once: not
// one whose condition is a constant false, such as the do { ... } while (0)
// that assertion and logging macros wrap their body in to run it once, nor
// one whose body ends in a break, return or throw with no continue.
bool isLoop(const clang::Stmt *S, clang::ASTContext &Ctx);

// Child, a direct child of Parent, never runs: the right operand of
// 'false && x' or 'true || x' (Catch2 repeats its condition there), or the
// branch of an if or ?: that a constant condition never takes
// (if (DEBUG) with #define DEBUG 0).
bool isDeadOperand(const clang::Stmt *Parent, const clang::Stmt *Child, clang::ASTContext &Ctx);

// Every loop (isLoop) outside system headers, bound to "loop": the matcher
// of the checks that look at a whole loop body. AlsoRunOnce adds the loops
// whose body runs once (do { ... } while (0)), for the checks of the order
// of statements within one pass.
clang::ast_matchers::StatementMatcher userLoop(bool AlsoRunOnce = false);

// A condition that holds once every k iterations: it contains a '%'.
bool isPeriodicCondition(const clang::Expr *Cond);

// Child, a direct child of Loop, runs on every iteration: anything but a
// for's init statement and a range-for's range.
bool isPerIterationPart(const clang::Stmt *Loop, const clang::Stmt *Child);

// The loop's keyword location, for notes.
clang::SourceLocation loopLoc(const clang::Stmt *Loop);

// The variable is declared outside the loop and never assigned (=, +=, ...,
// or through a non-const method that replaces it) inside it.
bool isLoopInvariant(const clang::VarDecl *V, const clang::Stmt *Loop, clang::ASTContext &Ctx);

} // namespace torchtidy
