#include "findings/FindingCollector.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace torchtidy {

static std::string lineText(FileID FID, unsigned Offset, const SourceManager &SM) {
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(FID, &Invalid);
  if (Invalid || Offset > Buffer.size())
    return "";
  size_t Newline = Buffer.rfind('\n', Offset); // searches [0, Offset)
  size_t Begin = Newline == llvm::StringRef::npos ? 0 : Newline + 1;
  size_t End = Buffer.find_first_of("\r\n", Offset);
  return Buffer.slice(Begin, End == llvm::StringRef::npos ? Buffer.size() : End).str();
}

// Against the compile command's directory (the file manager's), not the
// process's: a relative name is relative to where the compiler ran.
static std::string absolutePath(llvm::StringRef Name, const FileManager &FM) {
  llvm::SmallString<256> Path(Name);
  FM.makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

Position resolvePosition(SourceLocation Loc, const SourceManager &SM) {
  Position P;
  SourceLocation FileLoc = SM.getFileLoc(Loc);
  if (FileLoc.isInvalid())
    return P;
  std::pair<FileID, unsigned> Decomposed = SM.getDecomposedLoc(FileLoc);
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(Decomposed.first);
  P.File = Entry ? absolutePath(Entry->getName(), SM.getFileManager()) : SM.getFilename(FileLoc).str();
  P.Line = SM.getLineNumber(Decomposed.first, Decomposed.second);
  P.Column = SM.getColumnNumber(Decomposed.first, Decomposed.second);
  P.LineText = lineText(Decomposed.first, Decomposed.second, SM);
  return P;
}

void FindingCollector::report(const Diag &D, const SourceManager &SM) {
  if (D.Loc.isInvalid() || SM.isInSystemHeader(SM.getFileLoc(D.Loc)))
    return;
  Finding F;
  F.Rule = D.Rule;
  F.Severity = D.Rule->DefaultLevel;
  F.Pos = resolvePosition(D.Loc, SM);
  F.Message = D.Message;
  // A location in a macro is followed by where the macro spells it, as in
  // clang's (and clang-tidy's) output: after the warning, and after a note.
  // A macro argument is reported where it is written, with no such note.
  auto addMacroNote = [&](SourceLocation Loc) {
    if (!Loc.isMacroID() || SM.isMacroArgExpansion(Loc))
      return;
    SourceLocation Spelling = SM.getSpellingLoc(Loc);
    if (!SM.isInSystemHeader(Spelling))
      F.Notes.push_back({resolvePosition(Spelling, SM),
                         "expanded from macro '" +
                             Lexer::getImmediateMacroName(Loc, SM, LangOptions()).str() + "'"});
  };
  addMacroNote(D.Loc);
  for (const DiagNote &N : D.Notes) {
    if (N.Loc.isInvalid()) {
      F.Notes.push_back({{N.Elsewhere.File, N.Elsewhere.Line, N.Elsewhere.Column, ""}, N.Message});
      continue;
    }
    F.Notes.push_back({resolvePosition(N.Loc, SM), N.Message});
    addMacroNote(N.Loc);
  }
  for (const DiagFix &Fix : D.Fixes) {
    CharSourceRange Range = Lexer::makeFileCharRange(Fix.Range, SM, LangOptions());
    if (Range.isInvalid())
      continue;
    FindingFix Out;
    Out.Pos = resolvePosition(Range.getBegin(), SM);
    Out.Offset = SM.getFileOffset(Range.getBegin());
    Out.Length = SM.getFileOffset(Range.getEnd()) - Out.Offset;
    Out.Replacement = Fix.Replacement;
    F.Fixes.push_back(std::move(Out));
  }
  Out.push_back(std::move(F));
}

} // namespace torchtidy
