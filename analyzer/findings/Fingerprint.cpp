#include "findings/Fingerprint.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <map>

namespace torchtidy {

void assignFingerprints(std::vector<Finding> &Findings) {
  std::map<std::string, int> Seen;
  for (Finding &F : Findings) {
    std::string Key = F.Rule->Id + "\n" + llvm::StringRef(F.Pos.LineText).trim().str();
    int N = ++Seen[F.Pos.File + "\n" + Key];
    F.Fingerprint =
        llvm::utohexstr(llvm::xxh3_64bits(Key), /*LowerCase=*/true) + ":" + std::to_string(N);
  }
}

} // namespace torchtidy
