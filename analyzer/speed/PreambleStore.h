// The preambles on disk: <cache>/pch/<key>.{h,pch,inputs}. The .inputs file
// says whether the PCH may be used and lists the files it was built from
// with their stamps; it is written last, atomically, and names the PCH's
// own stamp, so a PCH that was cut short or replaced is never taken as
// built. A build that failed is recorded there too (without a PCH), so
// that it is not tried again on every run while the files it read and the
// headers it did not find stay as they were. Least recently used
// preambles are removed past a size limit.
#pragma once

#include "frontend/IncludedFiles.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

constexpr uint64_t DefaultPchCacheBytes = uint64_t(4) << 30;

// "4G", "512M", "100K", "123" (bytes); nullopt when malformed.
std::optional<uint64_t> parseByteSize(llvm::StringRef Text);

struct PreambleMeta {
  // Its build failed: it is not built again while the files it read and
  // the headers it did not find are unchanged.
  bool Failed = false;
  std::vector<MissingHeader> Missing; // of a failed build
  bool Usable = false;
  std::vector<std::string> Inputs;
  std::vector<std::string> UserInputs; // project headers among Inputs
};

class PreambleStore {
public:
  PreambleStore(std::string CacheDir, uint64_t MaxBytes);

  const std::string &dir() const { return Dir; }
  std::string path(llvm::StringRef Key, llvm::StringRef Ext) const;
  // The stored preamble, if none of its inputs and not the PCH changed;
  // marks it used now (for eviction).
  std::optional<PreambleMeta> lookup(llvm::StringRef Key, FileStamps &Stamps) const;
  // Records a built PCH, or a failed build; Error names the file on failure.
  bool record(llvm::StringRef Key, const PreambleMeta &Meta, std::string &Error) const;
  // Removes the least recently used preambles past the size limit, never
  // those in Keep. Returns how many were removed.
  unsigned evict(const llvm::StringSet<> &Keep) const;

private:
  std::string Dir;
  uint64_t MaxBytes;
};

} // namespace torchtidy
