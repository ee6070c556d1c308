#include "formats/LogReader.h"
#include "formats/Report.h"
#include "formats/RuleDocs.h"
#include "formats/SarifLog.h"
#include "support/Version.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

#include <map>
#include <nlohmann/json.hpp>

namespace torchtidy {

std::string encodeUri(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/')
      Out += C;
    else {
      Out += '%';
      Out += llvm::hexdigit(C >> 4, false);
      Out += llvm::hexdigit(C & 15, false);
    }
  }
  return Out;
}

namespace {

// A file:// URI for an absolute path.
std::string fileUri(llvm::StringRef AbsolutePath) { return "file://" + encodeUri(AbsolutePath); }

struct UriBase {
  std::string Root; // the working directory, with a trailing '/'
  UriBase() {
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    Root = Cwd.str().str() + "/";
  }
  bool under(const std::string &File) const { return llvm::StringRef(File).starts_with(Root); }
  std::string uri(const std::string &File) const {
    return under(File) ? encodeUri(File.substr(Root.size())) : fileUri(File);
  }
  nlohmann::json artifact(const std::string &File) const {
    if (under(File))
      return {{"uri", uri(File)}, {"uriBaseId", "SRCROOT"}};
    return {{"uri", uri(File)}};
  }
};

// Column 0: the line alone (SARIF's columns start at 1).
nlohmann::json location(nlohmann::json Artifact, unsigned Line, unsigned Column) {
  nlohmann::json Region = {{"startLine", Line}};
  if (Column)
    Region["startColumn"] = Column;
  return {{"physicalLocation", {{"artifactLocation", std::move(Artifact)}, {"region", std::move(Region)}}}};
}

nlohmann::json location(const UriBase &Base, const Position &P) {
  return location(Base.artifact(P.File), P.Line, P.Column);
}

nlohmann::json tool(nlohmann::json Rules) {
  return {{"driver",
           {{"name", "torchtidy"},
            {"version", TORCHTIDY_VERSION},
            {"semanticVersion", TORCHTIDY_VERSION},
            {"informationUri", TORCHTIDY_HOMEPAGE},
            {"rules", std::move(Rules)}}}};
}

const char *sarifLevel(Level L) {
  return L == Level::Error ? "error" : L == Level::Note ? "note" : "warning";
}

std::string ruleName(llvm::StringRef Id) {
  std::string Name;
  bool Upper = true;
  for (char C : Id.drop_front(Id.starts_with("torch-") ? 6 : 0)) {
    if (C == '-') {
      Upper = true;
      continue;
    }
    Name += Upper ? llvm::toUpper(C) : C;
    Upper = false;
  }
  return Name;
}

// One run's invocation: it succeeded when every file was analysed at least
// in part; each file analysed in part or not at all is a notification, so
// that code review shows a partial analysis rather than a clean one.
nlohmann::json invocation(const UriBase &Base, const std::vector<TUResult> &Files) {
  nlohmann::json Notes = nlohmann::json::array();
  bool Succeeded = true;
  for (const TUResult &R : Files) {
    if (R.analysedFully())
      continue;
    Succeeded &= R.Failure.empty();
    std::string Text = R.Failure.empty()
                           ? std::to_string(R.Errors.size()) + " compile error(s); findings for this file "
                                                               "are partial. First: " + R.Errors.front()
                           : "not analysed: " + R.Failure;
    Notes.push_back({{"level", R.Failure.empty() ? "warning" : "error"},
                     {"message", {{"text", Text}}},
                     {"descriptor", {{"id", R.Failure.empty() ? "partial-analysis" : "not-analysed"}}},
                     {"locations", {{{"physicalLocation", {{"artifactLocation", Base.artifact(R.File)}}}}}}});
  }
  nlohmann::json I = {{"executionSuccessful", Succeeded}};
  if (!Notes.empty())
    I["toolExecutionNotifications"] = Notes;
  return I;
}

} // namespace

std::string toSarif(const std::vector<Finding> &Findings, const std::vector<const RuleInfo *> &Rules,
                    const SarifRun &RunInfo) {
  UriBase Base;

  nlohmann::json JRules = nlohmann::json::array();
  std::map<std::string, size_t> Index;
  for (const RuleInfo *R : Rules) {
    Index[R->Id] = JRules.size();
    JRules.push_back({{"id", R->Id},
                      {"name", ruleName(R->Id)},
                      {"shortDescription", {{"text", R->Summary}}},
                      {"fullDescription", {{"text", R->Summary + " (" + R->docPath() + ")"}}},
                      {"help", {{"text", "See " + R->docPath() + " in the torchtidy sources."},
                                {"markdown", ruleHelpMarkdown(R->Id)}}},
                      {"helpUri", ruleHelpUri(*R)},
                      {"defaultConfiguration", {{"level", sarifLevel(R->DefaultLevel)}}},
                      {"properties", {{"tags", R->Tags}, {"precision", precisionName(R->Confidence)}}}});
  }
  nlohmann::json Results = nlohmann::json::array();
  for (const Finding &F : Findings) {
    nlohmann::json R = {{"ruleId", F.Rule->Id},
                        {"level", sarifLevel(F.Severity)},
                        {"message", {{"text", F.Message}}},
                        {"locations", {location(Base, F.Pos)}},
                        {"partialFingerprints", {{"primaryLocationLineHash", F.Fingerprint}}}};
    if (Index.count(F.Rule->Id))
      R["ruleIndex"] = Index[F.Rule->Id];
    if (!F.Notes.empty()) {
      R["relatedLocations"] = nlohmann::json::array();
      for (size_t I = 0; I < F.Notes.size(); ++I) {
        nlohmann::json L = location(Base, F.Notes[I].Pos);
        L["id"] = I;
        L["message"] = {{"text", F.Notes[I].Message}};
        R["relatedLocations"].push_back(L);
      }
    }
    if (!F.Fixes.empty()) {
      nlohmann::json Replacements = nlohmann::json::array();
      for (const FindingFix &X : F.Fixes)
        Replacements.push_back({{"deletedRegion", {{"byteOffset", X.Offset}, {"byteLength", X.Length}}},
                                {"insertedContent", {{"text", X.Replacement}}}});
      nlohmann::json Change = {{"artifactLocation", Base.artifact(F.Fixes.front().Pos.File)},
                               {"replacements", Replacements}};
      nlohmann::json Fix = {{"description", {{"text", "Apply the suggested replacement"}}},
                            {"artifactChanges", nlohmann::json::array({Change})}};
      R["fixes"] = nlohmann::json::array({Fix});
    }
    if (F.Suppressed)
      R["suppressions"] = nlohmann::json::array({{{"kind", "inSource"}}});
    Results.push_back(R);
  }
  nlohmann::json Run = {
      {"tool", tool(std::move(JRules))},
      {"originalUriBaseIds", {{"SRCROOT", {{"uri", fileUri(Base.Root)}}}}},
      {"columnKind", "utf16CodeUnits"},
      {"automationDetails", {{"id", RunInfo.Category + "/"}}},
      {"results", Results}};
  if (RunInfo.Files)
    Run["invocations"] = nlohmann::json::array({invocation(Base, *RunInfo.Files)});
  return sarifText(sarifLog(std::move(Run)));
}

nlohmann::json sarifLog(nlohmann::json Run) {
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", nlohmann::json::array({std::move(Run)})}};
}

std::string sarifText(const nlohmann::json &Log) {
  return Log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string sarifUri(const std::string &File) { return UriBase().uri(File); }

// Results that are not Findings (confirm's).

static nlohmann::json result(const SarifResult &R) {
  nlohmann::json J = {{"ruleId", R.Rule},
                      {"level", "warning"},
                      {"message", {{"text", R.Message}}},
                      {"locations", nlohmann::json::array({location({{"uri", fileUri(R.File)}}, R.Line, R.Column)})}};
  if (!R.Properties.is_null())
    J["properties"] = R.Properties;
  return J;
}

nlohmann::json sarifLog(const std::vector<SarifResult> &Results) {
  nlohmann::json Run = {{"tool", tool(nlohmann::json::array())},
                        {"results", nlohmann::json::array()}};
  for (const SarifResult &R : Results)
    Run["results"].push_back(result(R));
  return sarifLog(std::move(Run));
}

std::string annotatedSarif(nlohmann::json Log, const std::vector<nlohmann::json> &Properties,
                           const std::vector<SarifResult> &Extra) {
  size_t I = 0;
  for (nlohmann::json &Run : Log["runs"])
    if (Run.contains("results"))
      for (nlohmann::json &R : Run["results"])
        if (I < Properties.size())
          R["properties"].update(Properties[I++]);
  for (const SarifResult &R : Extra)
    Log["runs"][0]["results"].push_back(result(R));
  return sarifText(Log);
}

// Reading back.

LogText parseSarif(llvm::StringRef Text, nlohmann::json &Log) {
  Log = nlohmann::json::parse(Text.begin(), Text.end(), nullptr, false);
  if (Log.is_discarded())
    return LogText::NotJson;
  return Log.is_object() && Log.contains("runs") && Log["runs"].is_array() ? LogText::Sarif : LogText::NotSarif;
}

// A file:// or relative URI as a path: %-escapes decoded.
static std::string uriToPath(std::string U) {
  if (U.rfind("file://", 0) == 0)
    U = U.substr(7);
  std::string Out;
  for (size_t I = 0; I < U.size(); ++I) {
    if (U[I] == '%' && I + 2 < U.size() && llvm::isHexDigit(U[I + 1]) && llvm::isHexDigit(U[I + 2])) {
      Out += char(std::stoi(U.substr(I + 1, 2), nullptr, 16));
      I += 2;
    } else
      Out += U[I];
  }
  return Out;
}

std::vector<LoggedFinding> sarifFindings(const nlohmann::json &Log) {
  using nlohmann::json;
  std::vector<LoggedFinding> Out;
  for (const json &Run : Log["runs"]) {
    std::string Base;
    if (Run.contains("originalUriBaseIds"))
      for (auto &KV : Run["originalUriBaseIds"].items())
        if (KV.value().contains("uri")) {
          Base = uriToPath(KV.value()["uri"].get<std::string>());
          break;
        }
    auto loc = [&](const json &L, std::string &File, unsigned &Line, unsigned *Col) {
      if (!L.contains("physicalLocation"))
        return;
      const json &P = L["physicalLocation"];
      if (P.contains("artifactLocation")) {
        File = uriToPath(P["artifactLocation"].value("uri", ""));
        if (!File.empty() && File[0] != '/' && P["artifactLocation"].contains("uriBaseId") && !Base.empty())
          File = Base + (Base.back() == '/' ? "" : "/") + File;
      }
      if (P.contains("region")) {
        Line = integer(P["region"], "startLine", 0u);
        if (Col)
          *Col = integer(P["region"], "startColumn", 0u);
      }
    };
    for (const json &R : Run.value("results", json::array())) {
      LoggedFinding F;
      F.Rule = R.value("ruleId", "");
      if (R.contains("message"))
        F.Message = R["message"].value("text", "");
      if (R.contains("locations") && !R["locations"].empty())
        loc(R["locations"][0], F.File, F.Line, &F.Column);
      for (const json &L : R.value("relatedLocations", json::array())) {
        std::string File;
        unsigned Line = 0;
        loc(L, File, Line, nullptr);
        if (Line)
          F.NoteLines.push_back({File, Line});
      }
      Out.push_back(std::move(F));
    }
  }
  return Out;
}

} // namespace torchtidy
