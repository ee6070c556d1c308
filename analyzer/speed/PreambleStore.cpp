#include "speed/PreambleStore.h"

#include "frontend/IncludedFiles.h"
#include "speed/ResultJson.h"
#include "support/AtomicFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>

namespace torchtidy {

std::optional<uint64_t> parseByteSize(llvm::StringRef Text) {
  uint64_t Unit = 1;
  if (!Text.empty()) {
    switch (llvm::toUpper(Text.back())) {
    case 'K': Unit = uint64_t(1) << 10; break;
    case 'M': Unit = uint64_t(1) << 20; break;
    case 'G': Unit = uint64_t(1) << 30; break;
    default: break;
    }
  }
  if (Unit != 1)
    Text = Text.drop_back();
  uint64_t N;
  if (Text.empty() || Text.getAsInteger(10, N) || N > UINT64_MAX / Unit)
    return std::nullopt;
  return N * Unit;
}

PreambleStore::PreambleStore(std::string CacheDir, uint64_t MaxBytes) : MaxBytes(MaxBytes) {
  llvm::SmallString<256> P(CacheDir);
  llvm::sys::fs::make_absolute(P); // the PCH is built in the command's directory
  llvm::sys::path::append(P, "pch");
  Dir = P.str().str();
}

std::string PreambleStore::path(llvm::StringRef Key, llvm::StringRef Ext) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Key + Ext);
  return P.str().str();
}

// The .inputs file: {"usable", "pch": stamp, "inputs": [[file, stamp, user]]},
// and for a failed build "failed" and "missing" (speed/ResultJson.h).
// The PCH is stat'ed afresh: this run may have rebuilt it.
std::optional<PreambleMeta> PreambleStore::lookup(llvm::StringRef Key, FileStamps &Stamps) const {
  std::string Inputs = path(Key, ".inputs");
  auto Buf = llvm::MemoryBuffer::getFile(Inputs);
  if (!Buf)
    return std::nullopt;
  PreambleMeta M;
  try {
    nlohmann::json J = nlohmann::json::parse((*Buf)->getBuffer().str());
    M.Usable = J.at("usable").get<bool>();
    M.Failed = J.contains("failed") && J.at("failed").get<bool>();
    if (M.Failed && anyNowFound(J.at("missing")))
      return std::nullopt;
    if (M.Usable && J.at("pch").get<std::string>() != fileStamp(path(Key, ".pch")))
      return std::nullopt;
    for (const nlohmann::json &In : J.at("inputs")) {
      std::string F = In.at(0).get<std::string>();
      if (Stamps.of(F) != In.at(1).get<std::string>())
        return std::nullopt;
      if (In.at(2).get<bool>())
        M.UserInputs.push_back(F);
      M.Inputs.push_back(std::move(F));
    }
  } catch (const std::exception &) {
    return std::nullopt; // unreadable: built again
  }
  // Its last use is the .inputs file's time; the PCH's own would change its stamp.
  int FD;
  if (!llvm::sys::fs::openFileForReadWrite(Inputs, FD, llvm::sys::fs::CD_OpenExisting,
                                           llvm::sys::fs::OF_None)) {
    (void)llvm::sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
    llvm::sys::fs::closeFile(FD);
  }
  return M;
}

bool PreambleStore::record(llvm::StringRef Key, const PreambleMeta &Meta, std::string &Error) const {
  nlohmann::json In = nlohmann::json::array();
  for (const std::string &F : Meta.Inputs)
    In.push_back({F, fileStamp(F), llvm::is_contained(Meta.UserInputs, F)});
  nlohmann::json J = {{"usable", Meta.Usable}, {"pch", fileStamp(path(Key, ".pch"))}, {"inputs", In}};
  if (Meta.Failed)
    J.update({{"failed", true}, {"missing", missingToJson(Meta.Missing)}});
  return writeFileAtomically(path(Key, ".inputs"), J.dump(), Error);
}

unsigned PreambleStore::evict(const llvm::StringSet<> &Keep) const {
  struct Entry {
    uint64_t Bytes = 0;
    llvm::sys::TimePoint<> Used;
  };
  llvm::StringMap<Entry> Entries;
  uint64_t Total = 0;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC; I.increment(EC)) {
    llvm::sys::fs::file_status St;
    if (llvm::sys::fs::status(I->path(), St) || !llvm::sys::fs::is_regular_file(St))
      continue;
    // <key>.<ext>, and clang's and AtomicFile's temporaries <key>.<ext>-<random>
    llvm::StringRef Name = llvm::sys::path::filename(I->path());
    Entry &En = Entries[Name.take_until([](char C) { return C == '.'; })];
    En.Bytes += St.getSize();
    En.Used = std::max(En.Used, St.getLastModificationTime());
    Total += St.getSize();
  }
  if (Total <= MaxBytes)
    return 0;
  std::vector<std::pair<llvm::sys::TimePoint<>, llvm::StringRef>> Oldest;
  for (const auto &E : Entries)
    if (!Keep.contains(E.getKey()))
      Oldest.push_back({E.getValue().Used, E.getKey()});
  std::sort(Oldest.begin(), Oldest.end());
  unsigned Removed = 0;
  for (const auto &[Used, Key] : Oldest) {
    if (Total <= MaxBytes)
      break;
    // .inputs first: without it the rest is never loaded.
    for (llvm::StringRef Ext : {".inputs", ".pch", ".h"})
      (void)llvm::sys::fs::remove(path(Key, Ext));
    Total -= Entries[Key].Bytes;
    ++Removed;
  }
  return Removed;
}

} // namespace torchtidy
