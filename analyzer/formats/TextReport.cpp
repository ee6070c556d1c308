#include "formats/Report.h"

namespace torchtidy {
namespace {

const char *Bold = "\033[1m", *Reset = "\033[0m", *Magenta = "\033[1;35m", *Red = "\033[1;31m",
           *Green = "\033[1;32m", *Black = "\033[1;30m";

// clang expands tabs to 8 columns in the snippet; the caret follows.
std::string expandTabs(const std::string &Line) {
  std::string Out;
  for (char C : Line)
    if (C == '\t')
      Out.append(8 - Out.size() % 8, ' ');
    else
      Out += C;
  return Out;
}

unsigned displayColumn(const std::string &Line, unsigned ByteColumn) {
  unsigned Col = 0;
  for (unsigned I = 0; I + 1 < ByteColumn && I < Line.size(); ++I)
    Col = Line[I] == '\t' ? Col + 8 - Col % 8 : Col + 1;
  return Col;
}

} // namespace

std::string printable(llvm::StringRef Text) {
  std::string Out = Text.str();
  for (char &Ch : Out)
    if (static_cast<unsigned char>(Ch) < 0x20 || Ch == 0x7f)
      Ch = '?';
  return Out;
}

namespace {

struct Printer {
  llvm::raw_ostream &OS;
  bool Color;
  const char *c(const char *Code) const { return Color ? Code : ""; }

  void header(const Position &P, const char *Kind, const char *KindColor, const std::string &Msg,
              const std::string &Id) {
    OS << c(Bold) << printable(P.File) << ":" << P.Line << ":" << P.Column << ": " << c(Reset)
       << c(KindColor) << Kind << ": " << c(Reset) << c(Bold) << Msg;
    if (!Id.empty())
      OS << " [" << Id << "]";
    OS << c(Reset) << "\n";
  }

  void snippet(const Position &P, const std::vector<FindingFix> &Fixes) {
    if (P.LineText.empty())
      return;
    OS << expandTabs(P.LineText) << "\n";
    unsigned Caret = displayColumn(P.LineText, P.Column);
    std::string Marks(Caret, ' ');
    Marks += '^';
    std::string FixLine;
    for (const FindingFix &F : Fixes) {
      if (F.Pos.Line != P.Line)
        continue;
      unsigned Begin = displayColumn(P.LineText, F.Pos.Column);
      unsigned End = displayColumn(P.LineText, F.Pos.Column + F.Length);
      if (Marks.size() < End)
        Marks.resize(End, ' ');
      for (unsigned I = Begin; I < End; ++I)
        if (Marks[I] == ' ')
          Marks[I] = '~';
      if (FixLine.size() < Begin)
        FixLine.resize(Begin, ' ');
      FixLine += F.Replacement;
    }
    OS << c(Green) << Marks << c(Reset) << "\n";
    if (!FixLine.empty())
      OS << c(Green) << FixLine << c(Reset) << "\n";
  }
};

} // namespace

void printText(llvm::raw_ostream &OS, const std::vector<Finding> &Findings, bool Color) {
  Printer P{OS, Color};
  for (const Finding &F : Findings) {
    bool IsError = F.Severity == Level::Error;
    P.header(F.Pos, IsError ? "error" : "warning", IsError ? Red : Magenta, F.Message, F.Rule->Id);
    P.snippet(F.Pos, F.Fixes);
    for (const FindingNote &N : F.Notes) {
      P.header(N.Pos, "note", Black, N.Message, "");
      P.snippet(N.Pos, {});
    }
  }
}

} // namespace torchtidy
