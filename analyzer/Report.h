// Reporters: they know findings and rule metadata, never the rules.
#pragma once

#include "Finding.h"

#include "llvm/Support/raw_ostream.h"

namespace torchtidy {

// clang-tidy's format: "file:line:col: warning: message [id]", the source
// line, a caret (and fix-it text), then the notes in the same form.
void printText(llvm::raw_ostream &OS, const std::vector<Finding> &Findings, bool Color);

// The JSON report: findings and per-file errors; documented in docs/json.md.
std::string toJson(const std::vector<Finding> &Findings, const std::vector<TUResult> &Results);

} // namespace torchtidy
