#include "formats/LogReader.h"
#include "formats/Report.h"
#include "support/Version.h"

#include <nlohmann/json.hpp>

namespace torchtidy {

static nlohmann::json position(const Position &P) {
  return {{"file", P.File}, {"line", P.Line}, {"column", P.Column}};
}

std::string toJson(const std::vector<Finding> &Findings, const std::vector<TUResult> &Results) {
  nlohmann::json Out;
  Out["format"] = "torchtidy-findings/1";
  Out["version"] = TORCHTIDY_VERSION;
  Out["findings"] = nlohmann::json::array();
  for (const Finding &F : Findings) {
    nlohmann::json J = position(F.Pos);
    J["check"] = F.Rule->Id;
    J["level"] = levelName(F.Severity);
    J["message"] = F.Message;
    J["notes"] = nlohmann::json::array();
    for (const FindingNote &N : F.Notes) {
      nlohmann::json JN = position(N.Pos);
      JN["message"] = N.Message;
      J["notes"].push_back(JN);
    }
    J["fixes"] = nlohmann::json::array();
    for (const FindingFix &X : F.Fixes) {
      nlohmann::json JX = position(X.Pos);
      JX["offset"] = X.Offset;
      JX["length"] = X.Length;
      JX["replacement"] = X.Replacement;
      J["fixes"].push_back(JX);
    }
    Out["findings"].push_back(J);
  }
  Out["files"] = nlohmann::json::array();
  for (const TUResult &R : Results) {
    nlohmann::json J = {{"file", R.File}, {"complete", R.analysedFully()}};
    if (!R.Failure.empty())
      J["failure"] = R.Failure;
    J["errors"] = R.Errors;
    Out["files"].push_back(J);
  }
  // Invalid UTF-8 in a message or path is replaced, not a reason to fail.
  return Out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace torchtidy

namespace torchtidy {

bool isJsonFindings(const nlohmann::json &Report) {
  return Report.is_object() && Report.value("format", "") == "torchtidy-findings/1";
}

std::vector<LoggedFinding> jsonFindings(const nlohmann::json &Report) {
  std::vector<LoggedFinding> Out;
  for (const nlohmann::json &R : Report.value("findings", nlohmann::json::array())) {
    LoggedFinding F;
    F.Rule = R.value("check", "");
    F.File = R.value("file", "");
    F.Line = integer(R, "line", 0u);
    F.Column = integer(R, "column", 0u);
    F.Message = R.value("message", "");
    for (const nlohmann::json &N : R.value("notes", nlohmann::json::array()))
      F.NoteLines.push_back({N.value("file", ""), integer(N, "line", 0u)});
    Out.push_back(std::move(F));
  }
  return Out;
}

} // namespace torchtidy
