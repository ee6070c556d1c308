// Reporters: they know findings and rule metadata, never the rules.
#pragma once

#include "findings/Finding.h"

#include "llvm/Support/raw_ostream.h"

namespace torchtidy {

// clang-tidy's format: "file:line:col: warning: message [id]", the source
// line, a caret (and fix-it text), then the notes in the same form.
void printText(llvm::raw_ostream &OS, const std::vector<Finding> &Findings, bool Color);

// Text for one line of terminal output: control characters (a newline or an
// escape sequence in a file name) become '?', so that a hostile name cannot
// forge or hide lines that editors and CI parse.
std::string printable(llvm::StringRef Text);

// The JSON report: findings and per-file errors; documented in docs/json.md.
std::string toJson(const std::vector<Finding> &Findings, const std::vector<TUResult> &Results);

// SARIF 2.1.0 for code review: every enabled rule in tool.driver.rules,
// locations relative to %SRCROOT% (the working directory); docs/sarif.md.
// Suppressed findings are results with an inSource suppression.
// Rules carry their doc page's what, why, bad and good as help.markdown and
// its address as helpUri.
struct SarifRun {
  // automationDetails.id is "<Category>/": code scanning keeps one analysis
  // per category, so each kind of run (or each matrix) gets its own.
  std::string Category = "torchtidy";
  // When set, the run's invocation: executionSuccessful, and a
  // notification for each file analysed in part or not at all.
  const std::vector<TUResult> *Files = nullptr;
};
std::string toSarif(const std::vector<Finding> &Findings, const std::vector<const RuleInfo *> &Rules,
                    const SarifRun &Run = {});

// GitLab's Code Quality report (Code Climate issues): check, message,
// severity, a unique fingerprint, the path relative to the working
// directory and the line.
std::string toCodeClimate(const std::vector<Finding> &Findings);

// A file's artifactLocation.uri in toSarif's logs: relative to %SRCROOT%
// when the file is under it, else a file:// URI.
std::string sarifUri(const std::string &File);

// RFC 3986: everything but unreserved characters and '/' is %-encoded, so
// spaces, '%' and non-ASCII bytes survive in a URI.
std::string encodeUri(llvm::StringRef Path);

} // namespace torchtidy
