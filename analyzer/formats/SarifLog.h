// SARIF logs as JSON values, for the commands that write SARIF without
// Findings (confirm) or from other logs (merge-sarif). Written by
// SarifReport.cpp with toSarif, so that a log, a result and a file URI are
// spelled in one place.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace torchtidy {

// The log around one run, and its text: the one place SARIF's version and
// schema are named.
nlohmann::json sarifLog(nlohmann::json Run);
std::string sarifText(const nlohmann::json &Log);

// A result that is not a Finding: confirm's findings read back from a log
// and what a trace shows alone. A warning without rule metadata; its file
// is a file:// URI encoded as toSarif encodes one.
struct SarifResult {
  std::string Rule, Message, File; // File absolute
  unsigned Line = 0, Column = 0;   // Column 0: the line alone
  nlohmann::json Properties;       // the property bag; null for none
};
// A log of Results alone, in one run of the same tool as toSarif's.
nlohmann::json sarifLog(const std::vector<SarifResult> &Results);
// Log (one that parseSarif accepted) with Properties[I] merged into the
// property bag of its I-th result, in the order sarifFindings reads them,
// and Extra appended to its first run.
std::string annotatedSarif(nlohmann::json Log, const std::vector<nlohmann::json> &Properties,
                           const std::vector<SarifResult> &Extra);

} // namespace torchtidy
