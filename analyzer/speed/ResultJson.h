// A TU's findings as stored in the result caches (local and remote).
#pragma once

#include "findings/Finding.h"

#include <nlohmann/json_fwd.hpp>

#include <vector>

namespace torchtidy {

nlohmann::json findingsToJson(const std::vector<Finding> &Findings);
// Throws on any malformation (the entry is then corrupt).
std::vector<Finding> findingsFrom(const nlohmann::json &J);

} // namespace torchtidy
