// LSP's vocabulary for torchtidy's findings: URIs, positions (0-based
// lines, columns in UTF-16 code units) and diagnostics.
#pragma once

#include "findings/Finding.h"

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace torchtidy::lsp {

std::string pathToUri(llvm::StringRef Path);
// None for a URI that is not an absolute file:// one.
std::optional<std::string> uriToPath(llvm::StringRef Uri);

// UTF-16 code units before the 1-based byte column Column of Line.
unsigned utf16Column(llvm::StringRef Line, unsigned Column);
// The LSP position of a byte offset in Text.
nlohmann::json positionAt(llvm::StringRef Text, size_t Offset);

// A finding as an LSP Diagnostic: code = check id, notes as relatedInformation.
nlohmann::json toDiagnostic(const Finding &F);

} // namespace torchtidy::lsp
