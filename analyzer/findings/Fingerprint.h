// The fingerprint that SARIF calls partialFingerprints.primaryLocationLineHash
// and that baselines match on: stable when unrelated lines move.
#pragma once

#include "findings/Finding.h"

namespace torchtidy {

// Sets Finding::Fingerprint: a hash of the rule and the trimmed source line,
// then ":N" for the Nth finding of that pair in its file. Findings must be
// sorted (sortAndDeduplicate) so that N follows the file's order.
void assignFingerprints(std::vector<Finding> &Findings);

} // namespace torchtidy
