// What a variable holds, read from its function: whether it is ever
// changed after its initialisation, and every value it is given.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <vector>

namespace torchtidy {

// A value a variable is given: an expression, or element Element of the
// tuple an expression gives (std::tie(a, v) = f() gives v element 1 of f()).
// Given at Call when a function it was passed to by reference assigns it.
struct HeldValue {
  const clang::Expr *E;
  int Element = -1;
  const clang::Expr *Call = nullptr;
  // Where the variable is given the value.
  const clang::Expr *where() const { return Call ? Call : E; }
};

// Passing a variable as argument I of FD may change it: a non-const
// reference parameter of a function that is not LibTorch's (its forwarding
// setters only read; torch::load's first argument is written), not a
// standard one that forwards to copy, and not one of the code's that
// provably leaves it alone.
bool mayChangeArgument(const clang::FunctionDecl *FD, unsigned I);
// The argument a call passes for parameter I of its callee (a member
// operator's object, argument 0, is not a parameter; a default argument is
// its expression); null when none.
const clang::Expr *argumentFor(const clang::CallExpr &Call, unsigned I);
// Call may change one of its arguments that Names picks, so passed (a
// member operator's object, argument 0, is not a parameter).
bool callMayChangeArgument(const clang::CallExpr &Call,
                           llvm::function_ref<bool(const clang::Expr *)> Names);

// S changes V in some way (an assignment too).
bool changes(const clang::Stmt &S, const clang::ValueDecl &V);

// A const variable, or a local or parameter that its function never
// changes: what it holds is what it was initialised with.
bool isUnchanged(const clang::VarDecl &V);
// A structured binding of a local (auto [a, b] = f()) never changed.
bool isUnchanged(const clang::BindingDecl &B);

// The initialiser of a variable that holds it still: a const variable, or
// a local its function never changes (a parameter's default argument is no
// initialiser: callers pass others); null otherwise.
const clang::Expr *lastingInit(const clang::VarDecl *V);

// The initialiser of V when it gives V a value: not a default construction
// (an undefined tensor holds no data) nor one Clang dropped; null otherwise.
const clang::Expr *givenInit(const clang::VarDecl &V);

// Every value a local variable of a tensor (or other) type ever holds: its
// initialiser (not a default construction: an undefined tensor holds no
// data) and the right-hand sides of its plain assignments (v = x).
// False when it changes in another way (+=, its address taken, a non-const
// reference bound to it, std::tie) or is no local.
bool allValuesOf(const clang::VarDecl &V, std::vector<const clang::Expr *> &Out);

// The values a local or parameter is given in its function: the
// right-hand sides of its plain assignments and std::tie's elements, not
// its initialiser or argument. False when it changes in another way.
bool allAssignedValues(const clang::VarDecl &V, std::vector<HeldValue> &Out);

// A private field or method of a class whose methods all have their bodies
// in this TU or are defined nowhere (Absent), and that nothing else can
// reach (no friends, member templates or nested classes).
bool privateMemberInView(const clang::Decl &M,
                         llvm::function_ref<bool(const clang::CXXMethodDecl &)> Absent);

// The code of RD's methods with bodies here that can change F: every body
// and constructor initialiser (Code), the initialisers of F written in
// constructors told apart (InitOfF). Implicit and defaulted methods only
// copy F from an object of the same class.
void visitFieldCode(const clang::FieldDecl &F,
                    llvm::function_ref<void(const clang::Expr *)> InitOfF,
                    llvm::function_ref<void(clang::Stmt *)> Code);

// Every value a private field of a class ever holds, when every method of
// the class has its body in this TU or is defined nowhere (Absent): its
// default member initialiser, its constructors' initialisers and the
// right-hand sides of its plain assignments in the methods. False when it
// changes another way, when something else may reach it (friends, member
// templates, nested classes) or when it is given no value.
bool allFieldValues(const clang::FieldDecl &F, std::vector<const clang::Expr *> &Out,
                    llvm::function_ref<bool(const clang::CXXMethodDecl &)> Absent);

// The values the field F of a local record V (of a local reference, those
// written through it) is given in V's function: the right-hand sides of
// V.F = x. False when V.F changes another way (a non-const reference bound
// to it, its address taken).
bool allMemberAssignedValues(const clang::VarDecl &V, const clang::FieldDecl &F,
                             std::vector<HeldValue> &Out);

// allValuesOf, with the values std::tie assignments give.
bool allHeldValues(const clang::VarDecl &V, std::vector<HeldValue> &Out);

} // namespace torchtidy
