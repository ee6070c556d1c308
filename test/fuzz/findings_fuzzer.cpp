// The two readers of findings files: a --baseline SARIF log, and the
// findings (torchtidy-findings/1 JSON or SARIF) that confirm joins.
#include "formats/Baseline.h"
#include "confirm/Confirm.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  std::string Error;
  torchtidy::Baseline::parse("baseline.sarif", Text, Error);
  std::vector<torchtidy::confirm::StaticFinding> F;
  nlohmann::json Log;
  bool IsSarif = false;
  torchtidy::confirm::parseFindings("findings.sarif", Text, F, Log, IsSarif, Error);
  return 0;
}
