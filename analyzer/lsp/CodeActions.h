// Quick fixes for a document's findings: each fix-it as a WorkspaceEdit,
// and a "// NOLINT(<id>)" comment on the finding's line.
#pragma once

#include "findings/Finding.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace torchtidy::lsp {

// The text a fix's offsets refer to (the analysed buffer, or another file).
using TextOf = std::function<std::string(const std::string &Path)>;

// The actions for the findings on lines First..Last (0-based) of the
// document at Path, whose analysed text is Text.
nlohmann::json codeActions(const std::vector<Finding> &Findings, const std::string &Path,
                           const std::string &Text, unsigned First, unsigned Last,
                           const TextOf &Read);

} // namespace torchtidy::lsp
