// NOLINT comments in a source file's text.
#include "config/Suppressions.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // A std::string, as a MemoryBuffer's text: the raw lexer reads the NUL
  // after the text.
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  std::vector<std::string> Errors;
  auto S = torchtidy::FileSuppressions::parse("a.cpp", Text, Errors);
  for (unsigned Line = 0; Line < 8; ++Line) {
    S.suppresses(Line, "torch-copy-in-loop");
    S.suppresses(Line, "torch-host-sync-in-loop");
  }
  return 0;
}
