// The pieces of container provenance (PlaceContainer.cpp) shared with the
// judging of each use of a container (PlaceContainerUse.cpp). A Member
// names the tensor member followed in a container of records; null, the
// container holds tensors.
#pragma once

#include "analyses/PlaceFlow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <initializer_list>
#include <vector>

namespace torchtidy::place {

bool isNamedMethod(const clang::CXXMethodDecl *MD, std::initializer_list<llvm::StringRef> Names);

// What a container element holds: tensors (Member null), or records whose
// Member is followed.
bool holdsWhat(clang::QualType T, const clang::FieldDecl *Member);

// Every element the container E holds lives at Q.Where: a tensor, or
// with Member, that member of a record.
bool containerHolds(const clang::Expr *E, const clang::FieldDecl *Member, int Depth, Question &Q);

// A local container (or a parameter, in its function) into which only
// tensors (records with Member) living at Q.Where go.
bool keepsThere(const clang::VarDecl &V, const clang::FieldDecl *Member, int Depth, Question &Q);

// Each reference to a container is a use that keeps what it holds at
// Q.Where: read, filled with values living there, handed on read-only.
bool usesKeepThere(llvm::ArrayRef<const clang::Expr *> Refs, clang::ASTContext &Ctx,
                   const clang::FieldDecl *Member, int Depth, Question &Q);

// The references to one variable or field in a body.
class Refs : public clang::RecursiveASTVisitor<Refs> {
public:
  explicit Refs(const clang::ValueDecl &V) : V(V) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr *D) {
    if (D->getDecl() == &V)
      Found.push_back(D);
    return true;
  }
  bool VisitMemberExpr(clang::MemberExpr *M) {
    if (M->getMemberDecl() == &V)
      Found.push_back(M);
    return true;
  }
  std::vector<const clang::Expr *> Found;

private:
  const clang::ValueDecl &V;
};


} // namespace torchtidy::place
