// A TU's program summary in the result cache: a cache hit still tells the
// other TUs what its functions do, so a warm run parses nothing.
#pragma once

#include "analyses/ProgramSummary.h"

#include <nlohmann/json_fwd.hpp>

namespace torchtidy {

nlohmann::json summaryToJson(const TUSummary &S);
// Throws on any malformation (the entry is then corrupt).
TUSummary summaryFrom(const nlohmann::json &J);

} // namespace torchtidy
