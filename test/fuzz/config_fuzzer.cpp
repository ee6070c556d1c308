// .torchtidy.yaml: parseConfig, then finishConfig and the uses of its result.
#include "config/Config.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Error;
  auto C = torchtidy::parseConfig("/src/.torchtidy.yaml",
                                  llvm::StringRef(reinterpret_cast<const char *>(Data), Size),
                                  torchtidy::Config(), Error);
  if (C && torchtidy::finishConfig(*C, Error)) {
    C->excluded("/src/third_party/a/b.cpp");
    C->enabledChecks();
    torchtidy::dumpConfig(*C);
  }
  return 0;
}
