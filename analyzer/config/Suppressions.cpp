#include "config/Suppressions.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <tuple>

namespace torchtidy {
namespace {

enum class Kind { Line, NextLine, Begin, End };

struct Directive {
  Kind K;
  unsigned Line, Column;
  bool AllChecks;       // no parentheses
  std::string Checks;   // the text in the parentheses, blanks removed
};

// Line starts, to turn offsets into 1-based lines and columns.
class LineTable {
public:
  explicit LineTable(llvm::StringRef Text) {
    Starts.push_back(0);
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        Starts.push_back(I + 1);
  }
  std::pair<unsigned, unsigned> position(size_t Offset) const {
    auto It = std::upper_bound(Starts.begin(), Starts.end(), Offset) - 1;
    return {unsigned(It - Starts.begin()) + 1, unsigned(Offset - *It) + 1};
  }

private:
  std::vector<size_t> Starts;
};

// The directives in one comment's text, which starts at Offset in the file.
void directivesInComment(llvm::StringRef Comment, size_t Offset, const LineTable &Lines,
                         std::vector<Directive> &Out) {
  for (size_t At = Comment.find("NOLINT"); At != llvm::StringRef::npos;
       At = Comment.find("NOLINT", At + 1)) {
    llvm::StringRef Rest = Comment.substr(At + 6);
    Directive D;
    D.K = Rest.consume_front("NEXTLINE") ? Kind::NextLine
          : Rest.consume_front("BEGIN")  ? Kind::Begin
          : Rest.consume_front("END")    ? Kind::End
                                         : Kind::Line;
    std::tie(D.Line, D.Column) = Lines.position(Offset + At);
    D.AllChecks = !Rest.consume_front("(");
    if (!D.AllChecks) {
      size_t Close = Rest.find(')');
      if (Close == llvm::StringRef::npos)
        continue; // clang-tidy ignores a list that is never closed
      for (char C : Rest.take_front(Close))
        if (!llvm::isSpace(C))
          D.Checks += C;
    }
    Out.push_back(std::move(D));
  }
}

std::vector<Directive> directives(llvm::StringRef Text) {
  std::vector<Directive> Out;
  if (!Text.contains("NOLINT"))
    return Out; // the common case: no need to lex
  LineTable Lines(Text);
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = LO.LineComment = true;
  // A raw lexer keeps "NOLINT" in strings and code from counting; comments
  // are the only tokens looked at.
  clang::Lexer Lex(clang::SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
  Lex.SetCommentRetentionState(true);
  clang::Token Tok;
  for (Lex.LexFromRawLexer(Tok); Tok.isNot(clang::tok::eof); Lex.LexFromRawLexer(Tok)) {
    if (Tok.isNot(clang::tok::comment))
      continue;
    size_t End = Lex.getBufferLocation() - Text.begin();
    size_t Begin = End - Tok.getLength();
    directivesInComment(Text.slice(Begin, End), Begin, Lines, Out);
  }
  return Out;
}

struct Problem {
  unsigned Line, Column;
  std::string Message;
};

} // namespace

FileSuppressions FileSuppressions::parse(llvm::StringRef File, llvm::StringRef Text,
                                         std::vector<std::string> &Errors) {
  FileSuppressions S;
  std::vector<Problem> Problems;
  auto problem = [&](const Directive &D, std::string Message) {
    Problems.push_back({D.Line, D.Column, std::move(Message)});
  };
  std::vector<Directive> Open; // NOLINTBEGINs not yet ended
  auto add = [&](const Directive &D, unsigned First, unsigned Last) {
    std::string GlobError;
    CheckGlob Glob = CheckGlob::parse(D.Checks, GlobError);
    if (!GlobError.empty())
      problem(D, "NOLINT: " + GlobError);
    else
      S.Ranges.push_back({First, Last, D.AllChecks, std::move(Glob)});
  };
  for (Directive &D : directives(Text)) {
    switch (D.K) {
    case Kind::Line:
      add(D, D.Line, D.Line);
      break;
    case Kind::NextLine:
      add(D, D.Line + 1, D.Line + 1);
      break;
    case Kind::Begin:
      Open.push_back(std::move(D));
      break;
    case Kind::End: {
      // Ends the latest NOLINTBEGIN with the same list, as clang-tidy does.
      auto It = std::find_if(Open.rbegin(), Open.rend(), [&](const Directive &B) {
        return B.AllChecks == D.AllChecks && B.Checks == D.Checks;
      });
      if (It == Open.rend()) {
        problem(D, "unmatched 'NOLINTEND' comment without a previous 'NOLINTBEGIN' comment");
        break;
      }
      add(*It, It->Line, D.Line);
      Open.erase(std::next(It).base());
      break;
    }
    }
  }
  for (const Directive &B : Open)
    problem(B, "unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' comment");
  std::stable_sort(Problems.begin(), Problems.end(), [](const Problem &A, const Problem &B) {
    return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
  });
  for (const Problem &P : Problems)
    Errors.push_back(File.str() + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column) +
                     ": error: " + P.Message);
  return S;
}

bool FileSuppressions::suppresses(unsigned Line, llvm::StringRef CheckId) const {
  return llvm::any_of(Ranges, [&](const Range &R) {
    return R.First <= Line && Line <= R.Last && (R.AllChecks || R.Checks.enabled(CheckId));
  });
}

void applySuppressions(std::vector<Finding> &Findings, const std::vector<std::string> &Files,
                       std::vector<std::string> &Errors,
                       const std::map<std::string, std::string> &Overlays) {
  llvm::StringMap<FileSuppressions> ByFile;
  auto forFile = [&](const std::string &File) -> const FileSuppressions & {
    auto It = ByFile.find(File);
    if (It != ByFile.end())
      return It->second;
    FileSuppressions S;
    auto Overlay = Overlays.find(File);
    if (Overlay != Overlays.end())
      S = FileSuppressions::parse(File, Overlay->second, Errors); // NUL-terminated too
    else if (auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true))
      S = FileSuppressions::parse(File, (*Buffer)->getBuffer(), Errors);
    else
      Errors.push_back("torchtidy: error: " + File + ": cannot read it for NOLINT comments: " +
                       Buffer.getError().message());
    return ByFile.try_emplace(File, std::move(S)).first->second;
  };
  for (const std::string &File : Files)
    forFile(File);
  for (Finding &F : Findings) {
    auto At = [&](const Position &P) {
      return !P.File.empty() && forFile(P.File).suppresses(P.Line, F.Rule->Id);
    };
    F.Suppressed = At(F.Pos) || llvm::any_of(F.Notes, [&](const FindingNote &N) { return At(N.Pos); });
  }
}

} // namespace torchtidy
