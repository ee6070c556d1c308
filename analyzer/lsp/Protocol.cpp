#include "lsp/Protocol.h"
#include "formats/RuleDocs.h"

#include "formats/Report.h"
#include "support/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace torchtidy::lsp {

std::string pathToUri(llvm::StringRef Path) { return "file://" + encodeUri(Path); }

std::optional<std::string> uriToPath(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return std::nullopt;
  Uri.consume_front("localhost");
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    unsigned Hi, Lo;
    if (Uri[I] == '%' && I + 2 < Uri.size() && (Hi = llvm::hexDigitValue(Uri[I + 1])) != ~0U &&
        (Lo = llvm::hexDigitValue(Uri[I + 2])) != ~0U) {
      Path += static_cast<char>(Hi * 16 + Lo);
      I += 2;
    } else {
      Path += Uri[I];
    }
  }
  if (!llvm::sys::path::is_absolute(Path) || Path.find('\0') != std::string::npos)
    return std::nullopt;
  return Path;
}

unsigned utf16Column(llvm::StringRef Line, unsigned Column) {
  unsigned Units = 0;
  for (size_t I = 0; I + 1 < Column && I < Line.size(); ++I) {
    unsigned char C = Line[I];
    if ((C & 0xC0) == 0x80)
      continue; // a continuation byte
    Units += C >= 0xF0 ? 2 : 1; // four bytes: a surrogate pair
  }
  return Units;
}

nlohmann::json positionAt(llvm::StringRef Text, size_t Offset) {
  Offset = std::min(Offset, Text.size());
  llvm::StringRef Before = Text.take_front(Offset);
  size_t LineStart = Before.rfind('\n') + 1; // npos + 1 == 0
  unsigned Line = Before.count('\n');
  llvm::StringRef LineText = Text.substr(LineStart).split('\n').first;
  return {{"line", Line}, {"character", utf16Column(LineText, Offset - LineStart + 1)}};
}

// The range of a finding or note: to EndColumn when known, else over the
// identifier (or the one character) at the column.
static nlohmann::json rangeOf(const Position &P, unsigned EndColumn) {
  llvm::StringRef Line = P.LineText;
  unsigned End = EndColumn > P.Column ? EndColumn : 0;
  if (!End) {
    End = std::max(P.Column, 1u);
    while (End <= Line.size() && (llvm::isAlnum(Line[End - 1]) || Line[End - 1] == '_'))
      ++End;
    End = std::max(End, P.Column + 1);
  }
  unsigned L = P.Line ? P.Line - 1 : 0;
  return {{"start", {{"line", L}, {"character", utf16Column(Line, P.Column)}}},
          {"end", {{"line", L}, {"character", utf16Column(Line, End)}}}};
}

static int severityOf(Level L) { return L == Level::Error ? 1 : L == Level::Warning ? 2 : 3; }

nlohmann::json toDiagnostic(const Finding &F) {
  nlohmann::json D = {{"range", rangeOf(F.Pos, F.EndColumn)},
                      {"severity", severityOf(F.Severity)},
                      {"code", F.Rule->Id},
                      {"codeDescription", {{"href", ruleHelpUri(*F.Rule)}}},
                      {"source", "torchtidy"},
                      {"message", F.Message}};
  nlohmann::json Related = nlohmann::json::array();
  for (const FindingNote &N : F.Notes)
    if (!N.Pos.File.empty())
      Related.push_back({{"location", {{"uri", pathToUri(N.Pos.File)}, {"range", rangeOf(N.Pos, 0)}}},
                         {"message", N.Message}});
  if (!Related.empty())
    D["relatedInformation"] = Related;
  return D;
}

} // namespace torchtidy::lsp
