#include "frontend/LoopRecovery.h"

#include "analyses/DroppedCode.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace torchtidy {
namespace {

// The bodies of the user's functions as parsed here (not from a PCH), and
// where the AST has range-for loops.
class Bodies : public RecursiveASTVisitor<Bodies> {
public:
  explicit Bodies(const SourceManager &SM) : SM(SM) {}

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        (D->isFromASTFile() || SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation()))))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (const Stmt *Body = FD->doesThisDeclarationHaveABody() ? FD->getBody() : nullptr) {
      SourceLocation B = Body->getBeginLoc(), E = Body->getEndLoc();
      if (B.isFileID() && E.isFileID() && SM.getFileID(B) == SM.getFileID(E))
        Spans.push_back({SM.getFileID(B), SM.getFileOffset(B), SM.getFileOffset(E)});
    }
    return true;
  }

  bool VisitCXXForRangeStmt(CXXForRangeStmt *For) {
    Kept.insert(For->getForLoc());
    return true;
  }

  std::vector<TextSpan> Spans;
  llvm::DenseSet<SourceLocation> Kept;

private:
  const SourceManager &SM;
};

// Offsets of a range-for header's 'for', top-level ':' and closing ')',
// and of the end of the loop's body.
struct Header {
  unsigned For, Colon, Close, BodyEnd;
};

// Where the statement that starts at Tokens[I] ends: the index of its
// closing '}' when it is a block, else of the first ';' outside brackets
// (a rough end for other statements, enough to tell what lies inside a
// loop); Tokens.size() if none.
size_t statementEnd(llvm::ArrayRef<Token> Tokens, size_t I) {
  int Depth = 0;
  for (size_t J = I; J < Tokens.size(); ++J) {
    const Token &T = Tokens[J];
    if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
      ++Depth;
    else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace))
      --Depth;
    if (Depth == 0 && (T.is(tok::semi) || (J > I && Tokens[I].is(tok::l_brace))))
      return J;
  }
  return Tokens.size();
}

// The range-for header that starts at Tokens[I] (a 'for'), if it is one.
std::optional<Header> rangeForAt(llvm::ArrayRef<Token> Tokens, size_t I, const SourceManager &SM) {
  if (I + 1 >= Tokens.size() || !Tokens[I + 1].is(tok::l_paren))
    return std::nullopt;
  auto Offset = [&](size_t J) { return SM.getFileOffset(Tokens[J].getLocation()); };
  int Depth = 0;
  std::optional<unsigned> Colon;
  for (size_t J = I + 1; J < Tokens.size(); ++J) {
    const Token &T = Tokens[J];
    if (T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace))
      ++Depth;
    else if (T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace) && --Depth == 0) {
      size_t End = J + 1 < Tokens.size() ? statementEnd(Tokens, J + 1) : Tokens.size();
      if (!Colon || !T.is(tok::r_paren) || End == Tokens.size())
        return std::nullopt;
      return Header{Offset(I), *Colon, Offset(J), Offset(End)};
    } else if (Depth == 1 && T.is(tok::semi))
      return std::nullopt;  // a plain for, or a range-for with an init-statement
    else if (Depth == 1 && T.is(tok::colon) && !Colon)
      Colon = Offset(J);
  }
  return std::nullopt;
}

// The 'for' tokens of a body that are not on a preprocessor directive's line
// (a macro's definition is not code of the body).
std::vector<size_t> forTokens(llvm::ArrayRef<Token> Tokens) {
  std::vector<size_t> Out;
  bool Directive = false;
  for (size_t I = 0; I < Tokens.size(); ++I) {
    const Token &T = Tokens[I];
    if (T.isAtStartOfLine())
      Directive = T.is(tok::hash);
    if (!Directive && T.is(tok::raw_identifier) && T.getRawIdentifier() == "for")
      Out.push_back(I);
  }
  return Out;
}

// "x : range)" becomes "x = range;;)". Written "x : range" with a space on
// either side of the ':', the spaces make room for the ";;"; otherwise what
// follows moves by two: true then.
bool rewriteHeader(std::string &Text, const Header &H) {
  if (H.Colon > 0 && Text[H.Colon - 1] == ' ' && Text[H.Colon + 1] == ' ') {
    std::string Range = Text.substr(H.Colon + 2, H.Close - H.Colon - 2);
    Text.replace(H.Colon - 1, H.Close - H.Colon + 1, "=" + Range + ";;");
    return false;
  }
  Text.insert(H.Close, ";;");
  Text[H.Colon] = '=';
  return true;
}

std::string absoluteName(FileID File, const SourceManager &SM) {
  OptionalFileEntryRef Ref = SM.getFileEntryRefForID(File);
  if (!Ref)
    return "";
  llvm::SmallString<256> Path(Ref->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

} // namespace

std::map<std::string, std::string> rewriteDroppedLoops(ASTContext &Ctx, Rewrites &Done) {
  const SourceManager &SM = Ctx.getSourceManager();
  Bodies B(SM);
  B.TraverseDecl(Ctx.getTranslationUnitDecl());
  // Per file, the dropped headers by offset (a lambda's body is also in its
  // function's).
  std::map<FileID, std::map<unsigned, Header>> Dropped;
  for (const TextSpan &Span : B.Spans) {
    std::optional<std::vector<Token>> Tokens = rawTokens(SM, Ctx.getLangOpts(), Span);
    if (!Tokens)
      continue;
    for (size_t I : forTokens(*Tokens)) {
      std::optional<Header> H = rangeForAt(*Tokens, I, SM);
      if (H && !B.Kept.contains((*Tokens)[I].getLocation()))
        Dropped[Span.File].emplace(H->For, *H);
    }
  }
  std::map<std::string, std::string> Out;
  for (const auto &[File, Headers] : Dropped) {
    std::optional<llvm::MemoryBufferRef> Buf = SM.getBufferOrNone(File);
    std::string Name = absoluteName(File, SM);
    if (!Buf || Name.empty())
      continue;
    std::vector<const Header *> Outermost;
    for (const auto &[For, H] : Headers)
      if (Outermost.empty() || For > Outermost.back()->BodyEnd)
        Outermost.push_back(&H);
    std::string Text = Buf->getBuffer().str();
    Done.Originals.emplace(Name, Text);
    // From the end, so that the offsets before each edit stay valid.
    for (auto It = Outermost.rbegin(); It != Outermost.rend(); ++It)
      if (rewriteHeader(Text, **It)) {
        std::pair<FileID, unsigned> At{File, (*It)->Close};
        Done.Moved[Name].push_back({SM.getLineNumber(At.first, At.second),
                                    SM.getColumnNumber(At.first, At.second)});
      }
    Out.emplace(std::move(Name), std::move(Text));
  }
  return Out;
}

static void showAsWritten(Position &P, const Rewrites &Done) {
  auto It = Done.Originals.find(P.File);
  if (It == Done.Originals.end() || P.Line == 0)
    return;
  llvm::StringRef Rest = It->second;
  for (unsigned L = 1; L < P.Line && !Rest.empty(); ++L)
    Rest = Rest.split('\n').second;
  P.LineText = Rest.split('\n').first.rtrim("\r").str();
  auto Moved = Done.Moved.find(P.File);
  if (Moved != Done.Moved.end())
    for (auto [Line, Close] : Moved->second)
      if (P.Line == Line && P.Column >= Close + 2)
        P.Column -= 2;
}

void showAsWritten(std::vector<Finding> &Findings, const Rewrites &Done) {
  for (Finding &F : Findings) {
    showAsWritten(F.Pos, Done);
    for (FindingNote &N : F.Notes)
      showAsWritten(N.Pos, Done);
  }
}

} // namespace torchtidy
