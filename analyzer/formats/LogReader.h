// Reading torchtidy's own logs back. SARIF is parsed here for the baseline,
// merge-sarif and confirm; torchtidy-findings/1 JSON for confirm. Each
// reader sits beside its writer (SarifReport.cpp, JsonReport.cpp); callers
// word their own errors, since each names what the file was meant to be.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace torchtidy {

// A finding as a log holds it: what confirm joins to a trace.
struct LoggedFinding {
  std::string Rule, File, Message;
  unsigned Line = 0, Column = 0;
  std::vector<std::pair<std::string, unsigned>> NoteLines;
};

enum class LogText { Sarif, NotJson, NotSarif };
// Parses Text into Log, which holds the JSON even when it is NotSarif (a
// SARIF log is an object with a "runs" array).
LogText parseSarif(llvm::StringRef Text, nlohmann::json &Log);
// Every result of every run, its file resolved against the run's base URI.
// Throws nlohmann::json::exception on a value of another type than SARIF's.
std::vector<LoggedFinding> sarifFindings(const nlohmann::json &Log);

// Whether Report is torchtidy-findings/1 (docs/json.md), and its findings;
// throws like sarifFindings.
bool isJsonFindings(const nlohmann::json &Report);
std::vector<LoggedFinding> jsonFindings(const nlohmann::json &Report);

// An integer: a count, an id, a line. nlohmann would cast a float, which is
// undefined out of the type's range (1e300); no writer emits one.
template <typename T> T integer(const nlohmann::json &V) {
  if (!V.is_number_integer())
    throw nlohmann::json::type_error::create(302, "expected an integer, found " + V.dump(), &V);
  return V.get<T>();
}
template <typename T> T integer(const nlohmann::json &Obj, const char *Key, T Default) {
  return Obj.contains(Key) ? integer<T>(Obj[Key]) : Obj.value(Key, Default);
}

} // namespace torchtidy
