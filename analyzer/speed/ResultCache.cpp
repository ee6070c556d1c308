#include "speed/ResultCache.h"

#include "frontend/AnalysisOptions.h"
#include "support/AtomicFile.h"
#include "frontend/IncludedFiles.h"
#include "checks/Registry.h"
#include "formats/SummaryJson.h"
#include "speed/Hashing.h"
#include "speed/RemoteCache.h"
#include "speed/ResultJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace torchtidy {
namespace {

constexpr llvm::StringLiteral EntryMagic = "torchtidy-result/2 ";

// A rebuilt torchtidy (same version, changed checks) must not reuse the
// entries of the old one: the executable's size and time count.
std::string executableIdentity() {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, &Anchor);
  llvm::sys::fs::file_status St;
  if (Exe.empty() || llvm::sys::fs::status(Exe, St))
    return "unknown";
  return Exe + ":" + std::to_string(St.getSize()) + ":" +
         std::to_string(St.getLastModificationTime().time_since_epoch().count());
}

} // namespace

std::string defaultCacheDir() {
  if (std::optional<std::string> D = llvm::sys::Process::GetEnv("TORCHTIDY_CACHE_DIR"))
    return *D;
  llvm::SmallString<256> P;
  if (std::optional<std::string> X = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"); X && !X->empty())
    P = *X;
  else if (!llvm::sys::path::home_directory(P))
    return "";
  else
    llvm::sys::path::append(P, ".cache");
  llvm::sys::path::append(P, "torchtidy");
  return P.str().str();
}

std::vector<std::string> systemHeadersOf(llvm::ArrayRef<std::string> Included,
                                         llvm::ArrayRef<std::string> UserFiles) {
  std::vector<std::string> System(Included.begin(), Included.end());
  llvm::erase_if(System, [&](const std::string &F) { return llvm::is_contained(UserFiles, F); });
  llvm::sort(System);
  return System;
}

ResultCache::ResultCache(std::string Dir, FileStamps &Stamps)
    : Dir(std::move(Dir)), Stamps(Stamps) {}

std::string ResultCache::contentHash(llvm::StringRef Path) {
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Hashes.find(Path);
    if (It != Hashes.end())
      return It->second;
  }
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  std::string H = Buf ? hashOf((*Buf)->getBuffer()) : "";
  std::lock_guard<std::mutex> G(Lock);
  Hashes[Path] = H;
  return H;
}

std::string ResultCache::key(const AnalysisOptions &Opts,
                             const std::vector<clang::tooling::CompileCommand> &Commands,
                             llvm::StringRef File) {
  std::string Content = contentHash(File);
  if (Content.empty())
    return "";
  // What of the run decides the findings besides the TU is part of each
  // key: it differs per .torchtidy.yaml group.
  std::string Key = resultKey(Opts, executableIdentity(), Commands, File, Content,
                              [](llvm::StringRef P) { return P.str(); });
  if (Remote)
    Remote->keyFor(Key, Opts, Commands, File, Content);
  return Key;
}

std::string ResultCache::entryPath(const std::string &Key) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, "results", Key.substr(0, 2), Key.substr(2));
  return P.str().str();
}

std::string ResultCache::manifestPath(const std::string &Key) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, "results", "system", Key);
  return P.str().str();
}

void ResultCache::knownHash(llvm::StringRef Path, llvm::StringRef Hash) {
  std::lock_guard<std::mutex> G(Lock);
  Hashes.try_emplace(Path, Hash.str());
}

void ResultCache::warn(std::string Message) {
  std::lock_guard<std::mutex> G(Lock);
  Warnings.push_back(std::move(Message));
}

std::vector<std::string> ResultCache::takeWarnings() {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<std::string> Out = std::move(Warnings);
  std::sort(Out.begin(), Out.end());
  return Out;
}

std::optional<std::string> ResultCache::readChecked(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt; // not cached yet
  std::optional<llvm::StringRef> Body = unsealed(EntryMagic, (*Buf)->getBuffer());
  if (!Body) {
    warn("torchtidy: warning: cache entry " + Path +
         " is corrupt (checksum mismatch); analysing the file again");
    return std::nullopt;
  }
  return Body->str();
}

bool ResultCache::unchanged(const nlohmann::json &Files) {
  // [path, size:mtime, content hash]: a file with the recorded size and
  // time is taken as unchanged (not read again, as make and ninja would);
  // one touched but not changed still hits.
  for (const nlohmann::json &D : Files) {
    std::string Path = D.at(0).get<std::string>(), Hash = D.at(2).get<std::string>();
    if (Stamps.of(Path) == D.at(1).get<std::string>())
      knownHash(Path, Hash); // the entry stored next for a touched file needs not read it
    else if (contentHash(Path) != Hash)
      return false;
  }
  return true;
}

bool ResultCache::systemFilesUnchanged(const std::string &ManifestKey) {
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = ManifestVerdicts.find(ManifestKey);
    if (It != ManifestVerdicts.end())
      return It->second;
  }
  std::string Path = manifestPath(ManifestKey);
  bool Unchanged = false;
  if (std::optional<std::string> Body = readChecked(Path)) {
    try {
      Unchanged = unchanged(nlohmann::json::from_msgpack(Body->begin(), Body->end()));
    } catch (const std::exception &E) {
      warn("torchtidy: warning: cache entry " + Path + " is corrupt (" + E.what() +
           "); analysing the file again");
    }
  }
  std::lock_guard<std::mutex> G(Lock);
  ManifestVerdicts[ManifestKey] = Unchanged;
  return Unchanged;
}

std::optional<TUResult> ResultCache::lookup(const std::string &Key) {
  if (Key.empty())
    return std::nullopt;
  if (std::optional<TUResult> Local = lookupLocal(Key))
    return Local;
  auto Hash = [this](llvm::StringRef Path) { return contentHash(Path); };
  std::optional<RemoteHit> Hit = Remote ? Remote->lookup(Key, Hash) : std::nullopt;
  if (!Hit)
    return std::nullopt;
  storeLocal(Key, Hit->Result, Hit->IncludedFiles, Hit->UserFiles);
  return std::move(Hit->Result);
}

std::optional<TUResult> ResultCache::lookupLocal(const std::string &Key) {
  std::string Path = entryPath(Key);
  std::optional<std::string> Body = readChecked(Path);
  if (!Body)
    return std::nullopt;
  try {
    nlohmann::json J = nlohmann::json::from_msgpack(Body->begin(), Body->end());
    if (!unchanged(J.at("included")) || !systemFilesUnchanged(J.at("system").get<std::string>()))
      return std::nullopt; // an included file changed
    if (J.contains("missing") && anyNowFound(J.at("missing")))
      return std::nullopt; // a header not found then is there now
    TUResult R;
    R.File = J.at("file").get<std::string>();
    if (J.contains("errors"))
      R.Errors = J.at("errors").get<std::vector<std::string>>();
    R.Findings = findingsFrom(J.at("findings"));
    R.Summary = summaryFrom(J.at("summary"));
    return R;
  } catch (const std::exception &E) {
    warn("torchtidy: warning: cache entry " + Path + " is corrupt (" + E.what() +
         "); analysing the file again");
    return std::nullopt;
  }
}

std::optional<nlohmann::json> ResultCache::fileList(llvm::ArrayRef<std::string> Files) {
  nlohmann::json List = nlohmann::json::array();
  for (const std::string &F : Files) {
    std::string H = contentHash(F);
    if (H.empty())
      return std::nullopt; // gone already: nothing reliable to store
    List.push_back({F, Stamps.of(F), H});
  }
  return List;
}

bool ResultCache::write(const std::string &Path, const nlohmann::json &J) {
  std::vector<uint8_t> Bytes = nlohmann::json::to_msgpack(J);
  llvm::StringRef Body(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  std::string Error;
  if (std::error_code EC = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)))
    Error = llvm::sys::path::parent_path(Path).str() + ": " + EC.message();
  else
    writeFileAtomically(Path, sealed(EntryMagic, Body), Error);
  if (!Error.empty())
    warn("torchtidy: warning: cannot write the result cache: " + Error);
  return Error.empty();
}

void ResultCache::store(const std::string &Key, const TUResult &Result,
                        llvm::ArrayRef<std::string> IncludedFiles,
                        llvm::ArrayRef<std::string> UserFiles, llvm::ArrayRef<MissingHeader> Missing,
                        const FunctionTable *Program) {
  // Each missing include is one error of the result: any error more is
  // another kind, and the TU is analysed again next time.
  if (Key.empty() || !Result.Failure.empty() || Result.Errors.size() != Missing.size())
    return;
  storeLocal(Key, Result, IncludedFiles, UserFiles, Missing);
  if (Remote && Missing.empty())
    Remote->store(Key, Result, IncludedFiles, UserFiles, Program,
                  [this](llvm::StringRef Path) { return contentHash(Path); });
}

void ResultCache::storeLocal(const std::string &Key, const TUResult &Result,
                             llvm::ArrayRef<std::string> IncludedFiles,
                             llvm::ArrayRef<std::string> UserFiles,
                             llvm::ArrayRef<MissingHeader> Missing) {
  // The system headers (LibTorch's ~1500) are the same list in most TUs:
  // they go to one manifest shared by content, checked once per run, so a
  // warm entry stays small and quick to read.
  std::optional<nlohmann::json> SystemList = fileList(systemHeadersOf(IncludedFiles, UserFiles));
  std::optional<nlohmann::json> UserList = fileList(UserFiles);
  if (!SystemList || !UserList)
    return;
  std::vector<uint8_t> SystemBytes = nlohmann::json::to_msgpack(*SystemList);
  std::string ManifestKey =
      hashOf(llvm::StringRef(reinterpret_cast<const char *>(SystemBytes.data()), SystemBytes.size()));
  // Same key, same content: rewrite only a missing one or one this run
  // found corrupt (a lookup's verdict false for a key of today's hashes).
  std::string Manifest = manifestPath(ManifestKey);
  bool Rewrite;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = ManifestVerdicts.find(ManifestKey);
    Rewrite = It == ManifestVerdicts.end() ? !llvm::sys::fs::exists(Manifest) : !It->second;
  }
  if (Rewrite) {
    if (!write(Manifest, *SystemList))
      return;
    std::lock_guard<std::mutex> G(Lock);
    ManifestVerdicts[ManifestKey] = true;
  }
  nlohmann::json Entry = {{"file", Result.File},
                          {"system", ManifestKey},
                          {"included", *UserList},
                          {"findings", findingsToJson(Result.Findings)},
                          {"summary", summaryToJson(Result.Summary)}};
  if (!Missing.empty())
    Entry.update({{"missing", missingToJson(Missing)}, {"errors", Result.Errors}});
  write(entryPath(Key), Entry);
}

} // namespace torchtidy
