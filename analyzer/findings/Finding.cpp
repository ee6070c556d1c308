#include "findings/Finding.h"

#include <algorithm>
#include <tuple>

namespace torchtidy {

static auto key(const Finding &F) {
  return std::tie(F.Pos.File, F.Pos.Line, F.Pos.Column, F.Rule->Id, F.Message);
}

void sortAndDeduplicate(std::vector<Finding> &Findings) {
  std::stable_sort(Findings.begin(), Findings.end(),
                   [](const Finding &A, const Finding &B) { return key(A) < key(B); });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [](const Finding &A, const Finding &B) { return key(A) == key(B); }),
                 Findings.end());
}

} // namespace torchtidy
