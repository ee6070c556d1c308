#include "lsp/CodeActions.h"

#include "lsp/Protocol.h"

#include <map>

namespace torchtidy::lsp {
namespace {

nlohmann::json edit(llvm::StringRef Text, size_t Offset, size_t Length, const std::string &New) {
  return {{"range", {{"start", positionAt(Text, Offset)}, {"end", positionAt(Text, Offset + Length)}}},
          {"newText", New}};
}

nlohmann::json action(const std::string &Title, const Finding &F, nlohmann::json Changes,
                      bool Preferred) {
  return {{"title", Title},
          {"kind", "quickfix"},
          {"diagnostics", nlohmann::json::array({toDiagnostic(F)})},
          {"isPreferred", Preferred},
          {"edit", {{"changes", std::move(Changes)}}}};
}

nlohmann::json fixAction(const Finding &F, const std::string &Path, const std::string &Text,
                         const TextOf &Read) {
  std::map<std::string, std::string> Texts = {{Path, Text}};
  nlohmann::json Changes = nlohmann::json::object();
  for (const FindingFix &X : F.Fixes) {
    auto It = Texts.find(X.Pos.File);
    if (It == Texts.end())
      It = Texts.emplace(X.Pos.File, Read(X.Pos.File)).first;
    Changes[pathToUri(X.Pos.File)].push_back(edit(It->second, X.Offset, X.Length, X.Replacement));
  }
  return action("apply the fix-it of " + F.Rule->Id, F, std::move(Changes), true);
}

// The comment goes at the end of the line; on a line continued with a '\'
// (a macro's) it goes before the '\', as a block comment.
nlohmann::json nolintAction(const Finding &F, const std::string &Path, const std::string &Text) {
  size_t Start = 0;
  for (unsigned L = 1; L < F.Pos.Line; ++L) {
    Start = Text.find('\n', Start);
    if (Start == std::string::npos)
      return nullptr;
    ++Start;
  }
  llvm::StringRef Line = llvm::StringRef(Text).substr(Start).split('\n').first;
  Line.consume_back("\r");
  std::string Comment = "// NOLINT(" + F.Rule->Id + ")";
  size_t At = Line.size();
  llvm::StringRef Body = Line.rtrim();
  if (Body.ends_with("\\")) {
    At = Body.size() - 1;
    Comment = "/* NOLINT(" + F.Rule->Id + ") */ ";
  }
  bool Space = At > 0 && Line[At - 1] != ' ' && Line[At - 1] != '\t';
  nlohmann::json Changes = {
      {pathToUri(Path), nlohmann::json::array({edit(Text, Start + At, 0, (Space ? " " : "") + Comment)})}};
  return action("silence with " + Comment, F, std::move(Changes), false);
}

} // namespace

nlohmann::json codeActions(const std::vector<Finding> &Findings, const std::string &Path,
                           const std::string &Text, unsigned First, unsigned Last,
                           const TextOf &Read) {
  nlohmann::json Out = nlohmann::json::array();
  for (const Finding &F : Findings) {
    if (F.Pos.Line == 0 || F.Pos.Line - 1 < First || F.Pos.Line - 1 > Last)
      continue;
    if (!F.Fixes.empty())
      Out.push_back(fixAction(F, Path, Text, Read));
    nlohmann::json Silence = nolintAction(F, Path, Text);
    if (!Silence.is_null())
      Out.push_back(std::move(Silence));
  }
  return Out;
}

} // namespace torchtidy::lsp
