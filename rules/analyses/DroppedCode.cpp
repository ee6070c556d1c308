#include "analyses/DroppedCode.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace torchtidy {
namespace {

// Finds the code dropped around an error (see DroppedCode).
class Walk {
public:
  explicit Walk(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  std::optional<DroppedCode> around(SourceLocation Error) {
    auto [File, Off] = SM.getDecomposedExpansionLoc(Error);
    if (File.isInvalid())
      return std::nullopt;
    TextSpan Bounds{File, 0, static_cast<unsigned>(SM.getBufferData(File).size())};
    std::vector<Decl *> TopLevel = Ctx.getTraversalScope();
    std::vector<const Decl *> Decls(TopLevel.begin(), TopLevel.end());
    const CompoundStmt *Block = nullptr;
    while (true) {
      TextSpan Gap = Bounds;
      const Decl *InDecl = nullptr;
      const Stmt *InStmt = nullptr;
      if (Block) {
        for (const Stmt *S : Block->body())
          if (place(S->getSourceRange(), Off, Gap))
            InStmt = S;
      } else {
        for (const Decl *D : Decls)
          if (!D->isImplicit() && place(D->getSourceRange(), Off, Gap))
            InDecl = D;
      }
      if (InStmt) {
        Block = innermostBlock(InStmt, File, Off);
        if (!Block)
          return kept(*InStmt, File);
        Bounds = *extent(Block->getSourceRange(), File);
      } else if (InDecl) {
        Bounds = *extent(InDecl->getSourceRange(), File);
        if (!descend(InDecl, File, Off, Decls, Block))
          return DroppedCode{Bounds, nullptr, DynTypedNode::create(*InDecl)};
        if (Block)
          Bounds = *extent(Block->getSourceRange(), File);
      } else {
        return DroppedCode{Gap, Block, std::nullopt};
      }
    }
  }

private:
  // A kept statement that holds the error.
  std::optional<DroppedCode> kept(const Stmt &S, FileID File) const {
    if (std::optional<TextSpan> Text = extent(S.getSourceRange(), File))
      return DroppedCode{*Text, &S, DynTypedNode::create(S)};
    return std::nullopt;
  }

  // R's text in File, if it lies there.
  std::optional<TextSpan> extent(SourceRange R, FileID File) const {
    SourceLocation B = SM.getExpansionLoc(R.getBegin());
    SourceLocation E = SM.getExpansionRange(R.getEnd()).getEnd();
    if (B.isInvalid() || E.isInvalid())
      return std::nullopt;
    auto [FB, OB] = SM.getDecomposedLoc(B);
    auto [FE, OE] = SM.getDecomposedLoc(E);
    if (FB != File || FE != File || OE < OB)
      return std::nullopt;
    return TextSpan{File, OB, OE + Lexer::MeasureTokenLength(E, SM, Ctx.getLangOpts())};
  }

  // Narrows Gap by a kept node's text R; true when R holds Off.
  bool place(SourceRange R, unsigned Off, TextSpan &Gap) const {
    std::optional<TextSpan> S = extent(R, Gap.File);
    if (!S)
      return false;
    if (S->End <= Off)
      Gap.Begin = std::max(Gap.Begin, S->End);
    else if (S->Begin > Off)
      Gap.End = std::min(Gap.End, S->Begin);
    else
      return true;
    return false;
  }

  // The innermost block (a body, a lambda's too) inside S that holds Off.
  const CompoundStmt *innermostBlock(const Stmt *S, FileID File, unsigned Off) const {
    for (const Stmt *C : S->children()) {
      std::optional<TextSpan> E = C ? extent(C->getSourceRange(), File) : std::nullopt;
      if (!E || E->Begin > Off || Off >= E->End)
        continue;
      if (const CompoundStmt *Inner = innermostBlock(C, File, Off))
        return Inner;
      return dyn_cast<CompoundStmt>(C);
    }
    return nullptr;
  }

  // Into a declaration that holds Off: the declarations of a namespace or
  // a class, or a function's body; false for any other declaration.
  bool descend(const Decl *D, FileID File, unsigned Off, std::vector<const Decl *> &Decls,
               const CompoundStmt *&Block) const {
    if (const auto *T = dyn_cast<TemplateDecl>(D))
      D = T->getTemplatedDecl();
    if (const auto *FD = dyn_cast_or_null<FunctionDecl>(D)) {
      const auto *Body = dyn_cast_or_null<CompoundStmt>(
          FD->doesThisDeclarationHaveABody() ? FD->getBody() : nullptr);
      std::optional<TextSpan> E = Body ? extent(Body->getSourceRange(), File) : std::nullopt;
      if (!E || E->Begin > Off || Off >= E->End)
        return false;
      Block = Body;
      return true;
    }
    const auto *RD = dyn_cast_or_null<CXXRecordDecl>(D);
    if (!isa_and_nonnull<NamespaceDecl, LinkageSpecDecl>(D) &&
        !(RD && RD->isThisDeclarationADefinition()))
      return false;
    Decls.assign(cast<DeclContext>(D)->decls_begin(), cast<DeclContext>(D)->decls_end());
    return true;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
};

class MemberNames : public RecursiveASTVisitor<MemberNames> {
public:
  explicit MemberNames(const SourceManager &SM) : SM(SM) {}
  bool VisitMemberExpr(MemberExpr *E) { return add(E->getMemberLoc()); }
  bool VisitCXXDependentScopeMemberExpr(CXXDependentScopeMemberExpr *E) {
    return add(E->getMemberLoc());
  }
  bool VisitUnresolvedMemberExpr(UnresolvedMemberExpr *E) { return add(E->getMemberLoc()); }

  llvm::DenseSet<SourceLocation> Found;

private:
  bool add(SourceLocation Loc) {
    Found.insert(SM.getSpellingLoc(Loc));
    return true;
  }
  const SourceManager &SM;
};

} // namespace

llvm::DenseSet<SourceLocation> memberNamesIn(const DynTypedNode &Node, const SourceManager &SM) {
  MemberNames V(SM);
  if (const auto *S = Node.get<Stmt>())
    V.TraverseStmt(const_cast<Stmt *>(S));
  else if (const auto *D = Node.get<Decl>())
    V.TraverseDecl(const_cast<Decl *>(D));
  return V.Found;
}

std::vector<std::optional<DroppedCode>> droppedCode(ASTContext &Ctx,
                                                    llvm::ArrayRef<SourceLocation> Errors) {
  const SourceManager &SM = Ctx.getSourceManager();
  Walk Dropped(Ctx);
  std::vector<std::optional<DroppedCode>> Out;
  for (SourceLocation Error : Errors)
    if (Error.isInvalid())
      Out.push_back(std::nullopt);
    else if (!SM.isInSystemHeader(SM.getExpansionLoc(Error)))
      Out.push_back(Dropped.around(Error));
  return Out;
}

namespace {
class LostFinder : public RecursiveASTVisitor<LostFinder> {
public:
  bool VisitVarDecl(VarDecl *V) {
    if (V->isInvalidDecl() && V->isLocalVarDeclOrParm())
      Lost.push_back(V);
    return true;
  }
  std::vector<const VarDecl *> Lost;
};
} // namespace

std::vector<LostLocal> lostLocals(ASTContext &Ctx) {
  if (!Ctx.getDiagnostics().hasErrorOccurred())
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  LostFinder F;
  for (Decl *D : Ctx.getTraversalScope())
    if (!SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      F.TraverseDecl(D);
  std::vector<LostLocal> Out;
  for (const VarDecl *V : F.Lost) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
    const Stmt *Body = FD ? FD->getBody() : nullptr;
    if (!Body)
      continue;
    auto [File, Begin] = SM.getDecomposedExpansionLoc(V->getBeginLoc());
    auto [BodyFile, End] = SM.getDecomposedExpansionLoc(Body->getEndLoc());
    if (File == BodyFile && Begin <= End)
      Out.push_back({V, {{File, Begin, End}, Body, DynTypedNode::create(*Body)}});
  }
  return Out;
}

static thread_local const SourceManager *SkippedIn = nullptr;
static thread_local std::vector<SourceRange> Skipped;

SkippedText::SkippedText(const SourceManager &SM, llvm::ArrayRef<SourceRange> Ranges) {
  SkippedIn = &SM;
  Skipped = Ranges.vec();
}

SkippedText::~SkippedText() {
  SkippedIn = nullptr;
  Skipped.clear();
}

// The offsets of File that the preprocessor skipped.
static std::vector<std::pair<unsigned, unsigned>> skippedIn(const SourceManager &SM, FileID File) {
  std::vector<std::pair<unsigned, unsigned>> Out;
  if (&SM != SkippedIn)
    return Out;
  for (SourceRange R : Skipped) {
    auto [BeginFile, Begin] = SM.getDecomposedLoc(R.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
    if (BeginFile == File && EndFile == File)
      Out.push_back({Begin, End});
  }
  return Out;
}

std::optional<std::vector<Token>> rawTokens(const SourceManager &SM, const LangOptions &LO,
                                            const TextSpan &Text) {
  std::optional<llvm::MemoryBufferRef> Buf = SM.getBufferOrNone(Text.File);
  if (!Buf)
    return std::nullopt;
  const char *Start = Buf->getBufferStart();
  Lexer L(SM.getLocForStartOfFile(Text.File), LO, Start,
          Start + std::min<size_t>(Text.Begin, Buf->getBufferSize()), Buf->getBufferEnd());
  std::vector<std::pair<unsigned, unsigned>> Skip = skippedIn(SM, Text.File);
  std::vector<Token> Out;
  Token T;
  for (L.LexFromRawLexer(T); T.isNot(tok::eof) && SM.getFileOffset(T.getLocation()) < Text.End;
       L.LexFromRawLexer(T))
    if (unsigned Off = SM.getFileOffset(T.getLocation());
        llvm::none_of(Skip, [&](auto R) { return R.first <= Off && Off <= R.second; }))
      Out.push_back(T);
  return Out;
}

} // namespace torchtidy
