// A torchtidy-trace/1 file (the runtime shim's output) read by run/confirm.
#include "confirm/Confirm.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  torchtidy::confirm::Trace T;
  std::string Error;
  torchtidy::confirm::parseTrace(
      "trace.json", llvm::StringRef(reinterpret_cast<const char *>(Data), Size), T, Error);
  return 0;
}
