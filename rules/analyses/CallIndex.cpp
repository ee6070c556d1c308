#include "analyses/CallIndex.h"

#include "analyses/DroppedCode.h"
#include "analyses/TorchTypes.h"
#include "analyses/UnresolvedCall.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace torchtidy {

namespace {
// The call operators of RD and of its bases.
std::vector<const CXXMethodDecl *> callOperators(const CXXRecordDecl &RD) {
  std::vector<const CXXMethodDecl *> Found;
  auto Add = [&](const CXXRecordDecl *R) {
    for (const CXXMethodDecl *M : R->methods())
      if (M->getOverloadedOperator() == OO_Call)
        Found.push_back(M);
    return true;
  };
  Add(&RD);
  RD.forallBases(Add);
  return Found;
}

class Calls : public RecursiveASTVisitor<Calls> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *FD = C->getDirectCallee()) {
      Index.Calls[FD->getCanonicalDecl()].push_back(C);
      if (const auto *DRE = dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreParenImpCasts()))
        Callees.insert(DRE);
      if (const FunctionDecl *Forward = holderForward(*C))
        Index.Calls[Forward->getCanonicalDecl()].push_back(C);
      wrapped(FD, {C->getArgs(), C->getNumArgs()});
    }
    escaping({C->getArgs(), C->getNumArgs()});
    // A call Clang could not resolve counts as a call of each function it
    // may call: what it passes must be proved like any other call's.
    for (const FunctionDecl *FD : unresolvedCallees(*C))
      Index.Calls[FD->getCanonicalDecl()].push_back(C);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    wrapped(C->getConstructor(), {C->getArgs(), C->getNumArgs()});
    escaping({C->getArgs(), C->getNumArgs()});
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      Index.Defined.push_back(FD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D->getDecl()))
      Named.push_back({D, FD->getCanonicalDecl()});
    return true;
  }
  CallIndex finish() {
    for (const auto &[D, FD] : Named)
      if (!Callees.count(D))
        Index.AddressTaken.insert(FD);
    return std::move(Index);
  }

private:
  // A module put into a Sequential or an AnyModule has its forward called
  // by LibTorch, with arguments the code does not show.
  void wrapped(const FunctionDecl *FD, llvm::ArrayRef<const Expr *> Args) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    const IdentifierInfo *Class = MD ? MD->getParent()->getIdentifier() : nullptr;
    if (!Class || !isTorchDecl(MD) ||
        !llvm::is_contained({"Sequential", "SequentialImpl", "AnyModule"}, Class->getName()))
      return;
    for (const Expr *A : Args)
      if (const CXXRecordDecl *Module = heldModule(A->getType()))
        for (const CXXMethodDecl *Forward : Module->methods())
          if (Forward->getIdentifier() && Forward->getName() == "forward")
            Index.AddressTaken.insert(Forward->getCanonicalDecl());
  }

  // A function object handed to a function (an algorithm, a
  // std::function, a thread) is called where the code may not show.
  void escaping(llvm::ArrayRef<const Expr *> Args) {
    for (const Expr *A : Args)
      if (const CXXRecordDecl *RD = A->getType().getNonReferenceType()->getAsCXXRecordDecl();
          RD && RD->hasDefinition() && !RD->isLambda())
        for (const CXXMethodDecl *Call : callOperators(*RD))
          Index.AddressTaken.insert(Call->getCanonicalDecl());
  }

  CallIndex Index;
  std::set<const DeclRefExpr *> Callees;
  std::vector<std::pair<const DeclRefExpr *, const FunctionDecl *>> Named;
};

class UnresolvedNames : public RecursiveASTVisitor<UnresolvedNames> {
public:
  bool VisitOverloadExpr(OverloadExpr *E) { return add(E->getName()); }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) { return add(E->getMember()); }
  bool VisitDependentScopeDeclRefExpr(DependentScopeDeclRefExpr *E) { return add(E->getDeclName()); }
  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    if (isa<VarDecl, FieldDecl>(D) && D->getIdentifier()) {
      const CXXRecordDecl *RD = D->getType().getNonReferenceType()->getAsCXXRecordDecl();
      std::string Class = RD && RD->getIdentifier() ? RD->getName().str() : "";
      // Two of one name and different classes: either may be called.
      auto [It, New] = Objects.try_emplace(D->getName(), Class);
      if (!New && It->second != Class)
        It->second.clear();
    }
    return true;
  }
  bool VisitCXXRecordDecl(CXXRecordDecl *RD) {
    if (RD->getIdentifier() && RD->hasDefinition() && !callOperators(*RD).empty())
      Functors.insert(RD->getName());
    return true;
  }

  // The identifiers of dropped code; a call there of a variable's name
  // (the code's, or one the dropped code declares) may call an object:
  // of the variable's class, or of any when that is unknown.
  void addDropped(llvm::ArrayRef<Token> Tokens, IdentifierTable &Idents) {
    llvm::StringMap<std::string> Declared;
    for (size_t I = 0; I < Tokens.size(); ++I) {
      if (!Tokens[I].is(tok::raw_identifier))
        continue;
      llvm::StringRef Name = Tokens[I].getRawIdentifier();
      Found.insert(Name.str());
      if (declaredAt(Tokens, I, Idents))
        Declared[Name] = declaredClass(Tokens, I);
      else if (calledAt(Tokens, I, Idents) && (Declared.count(Name) || Objects.count(Name)))
        Found.insert(callOperatorName(Declared.count(Name) ? Declared.lookup(Name) : Objects.lookup(Name)));
    }
  }

  // Clang drops every use of a local whose type it lost, silently; a call
  // of one from its declaration on may call an object.
  void addLostCalls(ASTContext &Ctx) {
    for (const LostLocal &L : lostLocals(Ctx)) {
      std::optional<std::vector<Token>> Tokens =
          rawTokens(Ctx.getSourceManager(), Ctx.getLangOpts(), L.Code.Text);
      for (size_t I = 0; Tokens && I < Tokens->size(); ++I)
        if ((*Tokens)[I].is(tok::raw_identifier) &&
            (*Tokens)[I].getRawIdentifier() == L.Var->getName() && calledAt(*Tokens, I, Ctx.Idents))
          Found.insert(callOperatorName(lostClass(*L.Var, *Tokens)));
    }
  }

  std::set<std::string> Found;

private:
  bool add(DeclarationName Name) {
    if (Name.isIdentifier())
      Found.insert(Name.getAsIdentifierInfo()->getName().str());
    return true;
  }
  // The class of a local whose type Clang lost; Tokens start at its
  // declaration.
  std::string lostClass(const VarDecl &V, llvm::ArrayRef<Token> Tokens) const {
    if (const CXXRecordDecl *RD = V.getType()->getAsCXXRecordDecl())
      return RD->getName().str();
    for (size_t I = 0; I < Tokens.size(); ++I)
      if (Tokens[I].is(tok::raw_identifier) && Tokens[I].getRawIdentifier() == V.getName())
        return declaredClass(Tokens, I);
    return "";
  }
  // The class with a call operator that the declaration of Tokens[I] names
  // (Loss l(...), auto l = Loss(...), auto l = ns::Loss{...}), if any.
  std::string declaredClass(llvm::ArrayRef<Token> Tokens, size_t I) const {
    llvm::StringRef Class = I > 0 && Tokens[I - 1].is(tok::raw_identifier) ? Tokens[I - 1].getRawIdentifier() : "";
    if (I + 1 < Tokens.size() && Tokens[I + 1].is(tok::equal))
      for (I += 2; I < Tokens.size() && Tokens[I].isOneOf(tok::raw_identifier, tok::coloncolon); ++I)
        if (Tokens[I].is(tok::raw_identifier))
          Class = Tokens[I].getRawIdentifier();
    return Functors.count(Class) ? Class.str() : "";
  }

  // Tokens[I] names what a declaration declares (after a type).
  static bool declaredAt(llvm::ArrayRef<Token> Tokens, size_t I, IdentifierTable &Idents) {
    if (I == 0)
      return false;
    const Token &Before = Tokens[I - 1];
    if (Before.is(tok::raw_identifier)) {
      tok::TokenKind Kind = Idents.get(Before.getRawIdentifier()).getTokenID();
      return Kind == tok::identifier || Kind == tok::kw_auto;
    }
    return Before.isOneOf(tok::greater, tok::star, tok::amp, tok::ampamp);
  }
  // Tokens[I] is a name called: not a member's, not a declaration's.
  static bool calledAt(llvm::ArrayRef<Token> Tokens, size_t I, IdentifierTable &Idents) {
    return I + 1 < Tokens.size() && Tokens[I + 1].is(tok::l_paren) && !declaredAt(Tokens, I, Idents) &&
           !(I > 0 && Tokens[I - 1].isOneOf(tok::period, tok::arrow, tok::coloncolon, tok::tilde));
  }

  llvm::StringMap<std::string> Objects; // variables' classes, if known
  llvm::StringSet<> Functors;
};
} // namespace

CallIndex indexCalls(ASTContext &Ctx) {
  Calls V;
  for (Decl *D : Ctx.getTraversalScope())
    V.TraverseDecl(D);
  return V.finish();
}

std::set<std::string> unresolvedCallNames(ASTContext &Ctx, llvm::ArrayRef<SourceLocation> Errors) {
  UnresolvedNames Names;
  for (Decl *D : Ctx.getTraversalScope())
    Names.TraverseDecl(D);
  for (const std::optional<DroppedCode> &D : droppedCode(Ctx, Errors))
    if (std::optional<std::vector<Token>> Tokens =
            D ? rawTokens(Ctx.getSourceManager(), Ctx.getLangOpts(), D->Text) : std::nullopt)
      Names.addDropped(*Tokens, Ctx.Idents);
  Names.addLostCalls(Ctx);
  return std::move(Names.Found);
}

} // namespace torchtidy
