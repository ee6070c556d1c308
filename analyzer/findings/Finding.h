// A finding resolved to file, line and column: what reporters, filters and
// the runtime join work with, independent of Clang's SourceManager.
#pragma once

#include "analyses/ProgramSummary.h"
#include "framework/RuleInfo.h"

#include <string>
#include <vector>

namespace torchtidy {

struct Position {
  std::string File;  // as the compile command names it, made absolute
  unsigned Line = 0;   // 1-based
  unsigned Column = 0; // 1-based, in bytes, as clang counts
  std::string LineText; // the source line, for the snippet
};

struct FindingNote {
  Position Pos;
  std::string Message;
};

struct FindingFix {
  Position Pos;        // start of the replaced range
  unsigned Offset = 0; // byte offset of the range in the file
  unsigned Length = 0;
  std::string Replacement;
};

struct Finding {
  const RuleInfo *Rule = nullptr;
  Level Severity = Level::Warning;
  Position Pos;
  unsigned EndColumn = 0; // on Pos.Line; 0 when unknown
  std::string Message;
  std::vector<FindingNote> Notes;
  std::vector<FindingFix> Fixes;
  bool Suppressed = false;  // by a NOLINT comment (Suppressions.h)
  std::string Fingerprint;  // SARIF primaryLocationLineHash (Fingerprint.h)
};

// The outcome for one translation unit.
struct TUResult {
  std::string File;
  std::vector<Finding> Findings;
  std::vector<std::string> Errors; // clang-style "file:line:col: error: ..." lines
  std::string Failure;             // set when the file could not be analysed at all
  TUSummary Summary;               // for the other TUs of the program
  bool analysedFully() const { return Errors.empty() && Failure.empty(); }
};

// Sorts by file, line, column and rule, and drops repeats (a header's
// finding seen from several translation units, a template instantiated twice).
void sortAndDeduplicate(std::vector<Finding> &Findings);

} // namespace torchtidy
