#include "analyses/UnresolvedCall.h"

#include "analyses/TorchTypes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchtidy {

llvm::StringRef recoveredMemberName(const Expr *Callee, ASTContext &Ctx) {
  if (!isa<RecoveryExpr>(Callee->IgnoreParens()))
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = SM.getSpellingLoc(Callee->getEndLoc());
  Token Name;
  if (Lexer::getRawToken(End, Name, SM, Ctx.getLangOpts()) || !Name.is(tok::raw_identifier))
    return {};
  // Before the name, past blanks: '.' or '->'.
  llvm::StringRef Before(SM.getBufferData(SM.getFileID(End)).data(), SM.getFileOffset(End));
  Before = Before.rtrim();
  return Before.ends_with(".") || Before.ends_with("->") ? Name.getRawIdentifier()
                                                         : llvm::StringRef();
}

// The class whose member an object expression of type T names (through a
// pointer or a module holder).
static const CXXRecordDecl *objectClass(QualType T) {
  if (const CXXRecordDecl *Module = heldModule(T))
    return Module;
  if (T->isPointerType())
    T = T->getPointeeType();
  return T->getAsCXXRecordDecl();
}

// The declarations an unresolved callee may name.
static std::vector<const NamedDecl *> calleeCandidates(const Expr *Callee) {
  std::vector<const NamedDecl *> Out;
  auto Members = [&](const CXXRecordDecl *RD, llvm::function_ref<DeclarationName(ASTContext &)> Name) {
    if (RD && RD->hasDefinition())
      for (const NamedDecl *D : RD->getDefinition()->lookup(Name(RD->getASTContext())))
        Out.push_back(D);
  };
  if (const auto *O = dyn_cast<OverloadExpr>(Callee)) {  // f(...), obj.f(...) overloaded
    Out.assign(O->decls_begin(), O->decls_end());
  } else if (const auto *ME = dyn_cast<MemberExpr>(Callee)) {  // one of the overloads
    if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
      Members(MD->getParent(), [&](ASTContext &) { return MD->getDeclName(); });
  } else if (const auto *R = dyn_cast<RecoveryExpr>(Callee)) {  // obj.f with f lost
    if (R->subExpressions().size() == 1 && !R->subExpressions()[0]->isTypeDependent())
      Members(objectClass(R->subExpressions()[0]->getType()), [&](ASTContext &Ctx) {
        llvm::StringRef Name = recoveredMemberName(R, Ctx);
        return Name.empty() ? DeclarationName() : DeclarationName(&Ctx.Idents.get(Name));
      });
  }
  return Out;
}

std::vector<const FunctionDecl *> unresolvedCallees(const CallExpr &Call) {
  std::vector<const FunctionDecl *> Out;
  if (Call.getDirectCallee() || !Call.containsErrors())
    return Out;
  unsigned N = Call.getNumArgs();
  for (const NamedDecl *D : calleeCandidates(Call.getCallee()->IgnoreParenImpCasts())) {
    const auto *FD = dyn_cast<FunctionDecl>(D->getUnderlyingDecl());
    if (FD && N >= FD->getMinRequiredArguments() && (FD->isVariadic() || N <= FD->getNumParams()))
      Out.push_back(FD);
  }
  return Out;
}

const FunctionDecl *calleeOf(const CallExpr &Call) {
  if (const FunctionDecl *FD = Call.getDirectCallee())
    return FD;
  std::vector<const FunctionDecl *> Callees = unresolvedCallees(Call);
  return Callees.size() == 1 ? Callees.front() : nullptr;
}

bool lostInitializer(const VarDecl &V) {
  const ASTContext &Ctx = V.getASTContext();
  // Only an error drops an initialiser: a TU without one is not lexed.
  if (V.getInit() || isa<ParmVarDecl>(V) || V.getLocation().isMacroID() ||
      !Ctx.getDiagnostics().hasErrorOccurred())
    return false;
  std::optional<Token> Next =
      Lexer::findNextToken(V.getLocation(), Ctx.getSourceManager(), Ctx.getLangOpts());
  return Next && Next->isOneOf(tok::equal, tok::l_paren, tok::l_brace);
}

} // namespace torchtidy
