// A TU's findings as stored in the result caches (local and remote).
#pragma once

#include "findings/Finding.h"
#include "frontend/IncludedFiles.h"

#include "llvm/ADT/ArrayRef.h"

#include <nlohmann/json_fwd.hpp>

#include <vector>

namespace torchtidy {

nlohmann::json findingsToJson(const std::vector<Finding> &Findings);
// Throws on any malformation (the entry is then corrupt).
std::vector<Finding> findingsFrom(const nlohmann::json &J);

// Missing headers as [[name, [dir, ...]], ...], in a result cache entry or
// a failed preamble's record.
nlohmann::json missingToJson(llvm::ArrayRef<MissingHeader> Missing);
// Whether one of them has been installed since in a directory searched for
// it (what was decided on its absence is then stale). Throws on malformation.
bool anyNowFound(const nlohmann::json &J);

} // namespace torchtidy
