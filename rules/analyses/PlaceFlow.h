// The pieces of tensor provenance (TensorPlace) that follow values through
// containers of tensors and through the parameters and returns of
// functions; shared by TensorPlace.cpp, PlaceContainer.cpp and
// PlaceFacts.cpp. One question asks whether a tensor lives on the host, or
// whether it was put on a device; "don't know" is false for both.
#pragma once

#include "analyses/VarValues.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

namespace torchtidy::place {

// Variables, ops, returns and parameters are followed a few steps deep.
constexpr int MaxDepth = 24;

enum class Place { Host, Device };

// What is asked, the variables whose values are being looked at, and
// whether an answer ran out of depth (a "no" that may be "yes" from nearer).
struct Question {
  Place Where;
  llvm::SmallPtrSet<const clang::ValueDecl *, 4> Open;
  bool Cut = false;
  // For a returns fact other files read: what those files pass to a
  // function's parameters is not asked (this file would wait for its
  // callers, the reverse of the order files are analysed in).
  bool Exporting = false;
};

// Depth is past MaxDepth: the answer is cut short.
inline bool tooDeep(int Depth, Question &Q) {
  Q.Cut |= Depth > MaxDepth;
  return Depth > MaxDepth;
}

// Prove's answer for D (a parameter or a field), remembered per TU. D is
// open while Prove runs (a value passed back to itself adds nothing); a
// proof made while other values were open holds only with them and is not
// kept, nor a failure cut short (it may be a proof when asked from nearer).
bool remembered(const clang::ValueDecl &D, Question &Q, llvm::function_ref<bool()> Prove);

// The tensor lives at Q.Where (Depth steps in): on the host
// (isProvablyOnCpu), or put on a device (isPlacedOnDevice).
bool lives(const clang::Expr *E, int Depth, Question &Q);

// A value of type T lives at Q.Where: a tensor (lives), or a container of
// tensors (containerLives).
bool valueLives(const clang::Expr *E, clang::QualType T, int Depth, Question &Q);

// Def returns something, and every return's value is one Pred holds for.
bool everyReturn(const clang::FunctionDecl &Def,
                 llvm::function_ref<bool(const clang::Expr *)> Pred);

// Where a call Clang kept unresolved around an error puts its tensor, when
// it says: a LibTorch factory whose broken arguments cannot name a device
// (the host), or a tensor method known by name that keeps its object's place.
std::optional<bool> brokenMadeThere(const clang::Expr *E, int Depth, Question &Q);

// The member F of a batch a range-for over Range (a LibTorch data loader)
// gives lives at Q.Where, as its dataset's get() makes it.
bool loadedLives(const clang::Expr &Range, const clang::FieldDecl &F, int Depth, Question &Q);
// A range-for's element: the range it runs over, else null.
const clang::Expr *rangeOf(const clang::VarDecl &V);
// Every return of FD lives at Q.Where (its Member, if given), also when FD
// is defined in another file; for Call, if given, FD's parameters hold
// Call's arguments.
bool functionReturnsThere(const clang::FunctionDecl &FD, int Depth, Question &Q,
                          const clang::FieldDecl *Member = nullptr,
                          const clang::CallExpr *Call = nullptr);

// Every value of a private field (allFieldValues), read once per TU.
bool fieldValues(const clang::FieldDecl &F, std::vector<const clang::Expr *> &Out);
// A private field whose class's every method is in view (privateMemberInView).
bool fieldInView(const clang::FieldDecl &F);

// A container of tensors: std::vector<torch::Tensor>, TensorList, a tuple.
bool holdsTensors(clang::QualType T);

// Every tensor the container holds lives at Q.Where: a local
// std::vector<torch::Tensor> whose every insertion (push_back,
// emplace_back, an initialiser, v[i] = x) does and that never escapes where
// it could change unseen (a non-const reference, its address); a parameter
// whose every caller passes such a container; a function of the program
// whose every return is one.
bool containerLives(const clang::Expr *E, int Depth, Question &Q);

// The container E takes an element of (v[i], v.at(i), v.front(),
// v.back() of a container of tensors); null when E is no such element.
const clang::Expr *elementContainer(const clang::Expr *E);

// The same for an element of a standard container of F's records
// (batches[i] of a std::vector<Batch>).
const clang::Expr *recordContainer(const clang::Expr *E, const clang::FieldDecl &F);

// Member F of every record the container E holds lives at Q.Where: a local
// container, or a private field, into which only records with F there go
// (push_back, emplace_back) and whose elements are never given another F;
// what a function of the code returns as such a container.
bool recordsLive(const clang::Expr *E, const clang::FieldDecl &F, int Depth, Question &Q);

// Every call of the parameter's function in the program passes a tensor
// (or, for a container parameter, a container) living at Q.Where, and the
// function never changes the parameter.
bool paramLives(const clang::ParmVarDecl &P, int Depth, Question &Q);

// A structured binding of the tuple a function of the code returns
// (auto [images, targets] = collate(batch)): its element in every return
// lives at Q.Where (a tensor, or a container of such tensors). What the
// binding is given later is the caller's to check.
bool bindingLives(const clang::BindingDecl &B, int Depth, Question &Q);

// A function of the code (not LibTorch's, not the standard library's)
// whose every return lives at Q.Where: a tensor there, or a container of
// such tensors (or, given Member, whose every return has that member
// there); one of another file through its exported fact.
bool returnsThere(const clang::CallExpr &Call, int Depth, Question &Q,
                  const clang::FieldDecl *Member = nullptr);

// A function of the program, defined in another file, whose every return
// lives at Where (a tensor, or a container of such tensors), or has its
// Member living there.
bool returnsThereElsewhere(const clang::FunctionDecl &FD, Place Where,
                           const clang::FieldDecl *Member = nullptr);

// The member F of the record Record gives lives at Q.Where: an aggregate's
// initialiser for F ({img, label}); the argument a constructor of the code
// stores in F unchanged (Sample(img, label) : img(img)), or LibTorch's
// Example(data, target) in its member; F of every value of a local record
// together with what its F is given (s.label = x); F of every return of a
// function of the code, or of another file through its exported fact.
bool memberLives(const clang::Expr *Record, const clang::FieldDecl &F, int Depth, Question &Q);


} // namespace torchtidy::place
