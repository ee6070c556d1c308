#include "analyses/CudaText.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

using namespace clang;

namespace torchtidy {
namespace {

bool identifierMayNameGpu(llvm::StringRef Name) {
  static const llvm::StringSet<> Exact = {"is_available", "kHIP", "kMPS", "kXLA", "kXPU",
                                          "kVulkan", "kMTIA", "kPrivateUse1"};
  return Exact.contains(Name) || Name.contains_insensitive("cuda") ||
         Name.contains_insensitive("device") || Name.contains_insensitive("gpu") ||
         Name.contains_insensitive("nccl");
}

bool literalMayNameGpu(llvm::StringRef Text) {
  return llvm::any_of(std::initializer_list<llvm::StringRef>{"cuda", "gpu", "mps", "hip", "xpu"},
                      [&](llvm::StringRef W) { return Text.contains_insensitive(W); });
}

// The tokens starting at offsets [Begin, End) of a file.
struct Span {
  FileID File;
  unsigned Begin = 0, End = 0;
};

bool spanMayNameGpu(const SourceManager &SM, const LangOptions &LO, const Span &S) {
  std::optional<llvm::MemoryBufferRef> Buf = SM.getBufferOrNone(S.File);
  if (!Buf)
    return true; // unreadable: nothing can be proved
  const char *Start = Buf->getBufferStart();
  Lexer L(SM.getLocForStartOfFile(S.File), LO, Start,
          Start + std::min<size_t>(S.Begin, Buf->getBufferSize()), Buf->getBufferEnd());
  Token T;
  for (L.LexFromRawLexer(T); T.isNot(tok::eof) && SM.getFileOffset(T.getLocation()) < S.End;
       L.LexFromRawLexer(T)) {
    if (T.is(tok::raw_identifier) && identifierMayNameGpu(T.getRawIdentifier()))
      return true;
    if (tok::isStringLiteral(T.getKind()) &&
        literalMayNameGpu(llvm::StringRef(T.getLiteralData(), T.getLength())))
      return true;
  }
  return false;
}

// Every file of the user's (outside system headers, those of a loaded
// preamble included), whole.
bool userTextMayNameGpu(const SourceManager &SM, const LangOptions &LO) {
  llvm::DenseSet<const FileEntry *> Seen;
  auto MayName = [&](const SrcMgr::SLocEntry &E) {
    if (!E.isFile() || SrcMgr::isSystem(E.getFile().getFileCharacteristic()))
      return false;
    OptionalFileEntryRef File = E.getFile().getContentCache().OrigEntry;
    if (!File || !Seen.insert(&File->getFileEntry()).second)
      return false;
    // A file entry's offset is its start location's raw encoding.
    FileID FID = SM.getFileID(SourceLocation::getFromRawEncoding(E.getOffset()));
    return spanMayNameGpu(SM, LO, Span{FID, 0, ~0u});
  };
  for (unsigned I = 0; I < SM.local_sloc_entry_size(); ++I)
    if (MayName(SM.getLocalSLocEntry(I)))
      return true;
  // Project headers held by a preamble.
  for (unsigned I = 0; I < SM.loaded_sloc_entry_size(); ++I) {
    bool Invalid = false;
    const SrcMgr::SLocEntry &E = SM.getLoadedSLocEntry(I, &Invalid);
    if (Invalid || MayName(E))
      return true;
  }
  return false;
}

// The code Clang may have dropped for an error: walking down from the
// user's top-level declarations through namespaces, classes, function
// bodies and blocks to the innermost list of declarations or statements
// around the error, the text between the ones before and after it that
// Clang kept; or the one that holds it, when that one was kept.
class DroppedCode {
public:
  explicit DroppedCode(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}

  std::optional<Span> around(SourceLocation Error) {
    auto [File, Off] = SM.getDecomposedExpansionLoc(Error);
    if (File.isInvalid())
      return std::nullopt;
    Span Bounds{File, 0, static_cast<unsigned>(SM.getBufferData(File).size())};
    std::vector<Decl *> TopLevel = Ctx.getTraversalScope();
    std::vector<const Decl *> Decls(TopLevel.begin(), TopLevel.end());
    const CompoundStmt *Block = nullptr;
    while (true) {
      Span Gap = Bounds;
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
          return extent(InStmt->getSourceRange(), File);
        Bounds = *extent(Block->getSourceRange(), File);
      } else if (InDecl) {
        Bounds = *extent(InDecl->getSourceRange(), File);
        if (!descend(InDecl, File, Off, Decls, Block))
          return Bounds;
        if (Block)
          Bounds = *extent(Block->getSourceRange(), File);
      } else {
        return Gap;
      }
    }
  }

private:
  // R's text in File, if it lies there.
  std::optional<Span> extent(SourceRange R, FileID File) const {
    SourceLocation B = SM.getExpansionLoc(R.getBegin());
    SourceLocation E = SM.getExpansionRange(R.getEnd()).getEnd();
    if (B.isInvalid() || E.isInvalid())
      return std::nullopt;
    auto [FB, OB] = SM.getDecomposedLoc(B);
    auto [FE, OE] = SM.getDecomposedLoc(E);
    if (FB != File || FE != File || OE < OB)
      return std::nullopt;
    return Span{File, OB, OE + Lexer::MeasureTokenLength(E, SM, Ctx.getLangOpts())};
  }

  // Narrows Gap by a kept node's text R; true when R holds Off.
  bool place(SourceRange R, unsigned Off, Span &Gap) const {
    std::optional<Span> S = extent(R, Gap.File);
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
      std::optional<Span> E = C ? extent(C->getSourceRange(), File) : std::nullopt;
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
      std::optional<Span> E = Body ? extent(Body->getSourceRange(), File) : std::nullopt;
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

} // namespace

bool droppedTextMayNameGpu(ASTContext &Ctx, llvm::ArrayRef<SourceLocation> Errors) {
  const SourceManager &SM = Ctx.getSourceManager();
  DroppedCode Dropped(Ctx);
  for (SourceLocation Error : Errors) {
    // A LibTorch or standard header's error drops none of the user's code.
    if (Error.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(Error)))
      continue;
    std::optional<Span> S = Error.isValid() ? Dropped.around(Error) : std::nullopt;
    if (!S)
      return userTextMayNameGpu(SM, Ctx.getLangOpts());
    if (spanMayNameGpu(SM, Ctx.getLangOpts(), *S))
      return true;
  }
  return false;
}

} // namespace torchtidy
