// The remote result cache, on Redis, shared by machines and checkouts (as
// ccache's and ctcache's): asked after a miss of the local cache
// (ResultCache), and given every result stored there.
//
// Keys and recorded files name the paths under a base directory relative
// to it, and the build by its build id, so that an entry written in
// /ci/a/proj hits in /home/me/proj on another machine; included files are
// compared by content hash only (times differ between checkouts). Values
// carry a format magic and a checksum. The store is never trusted to be up:
// it failing (down, slow past the timeout, an error) costs one warning and
// it is not asked again in the run; a corrupt entry is a miss, analysed
// and written again. Shared precompiled headers stay local.
#pragma once

#include "speed/BaseDir.h"
#include "speed/Redis.h"

#include "llvm/ADT/StringMap.h"

#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

struct AnalysisOptions;
class Profile;

// A result from the remote cache, its paths made absolute in this checkout.
struct RemoteHit {
  TUResult Result;
  std::vector<std::string> IncludedFiles; // every file the TU read
  std::vector<std::string> UserFiles;     // those that are not system headers
};

// The content hash of a file (memoized by the local cache); empty if unreadable.
using ContentHash = llvm::function_ref<std::string(llvm::StringRef)>;

class RemoteCache {
public:
  RemoteCache(std::string Url, RedisAddress Address, std::chrono::milliseconds Timeout,
              std::string BaseDirectory, Profile *Prof);

  // Notes the remote key of the TU whose local key is LocalKey.
  void keyFor(const std::string &LocalKey, const AnalysisOptions &Opts,
              const std::vector<clang::tooling::CompileCommand> &Commands, llvm::StringRef File,
              llvm::StringRef Content);
  std::optional<RemoteHit> lookup(const std::string &LocalKey, ContentHash Hash);
  // Program: the other TUs' summaries the result was analysed with.
  void store(const std::string &LocalKey, const TUResult &Result,
             llvm::ArrayRef<std::string> IncludedFiles, llvm::ArrayRef<std::string> UserFiles,
             const FunctionTable *Program, ContentHash Hash);
  // The first problem of the run, as a warning line; none if there was none.
  std::optional<std::string> takeWarning();

private:
  bool usable() const { return !Build.empty() && !Client.failed(); }
  std::string remoteKey(const std::string &LocalKey);
  // Key's value, its envelope checked and removed. None when Absent, or
  // when the store fails or the value is corrupt (a problem each).
  std::optional<std::string> getChecked(const std::string &Key, bool &Absent);
  void putSealed(const std::string &Key, const std::string &Body);
  // [path, hash] rows of Files, relative to the base; none if one is unreadable.
  std::optional<nlohmann::json> rows(llvm::ArrayRef<std::string> Files, ContentHash Hash);
  // Whether every row's file has that content; its absolute paths into Paths.
  bool unchanged(const nlohmann::json &Rows, ContentHash Hash, std::vector<std::string> &Paths);
  // The system headers of a manifest, if unchanged; asked once per run.
  std::optional<std::vector<std::string>> systemFiles(const std::string &ManifestKey, ContentHash Hash);
  void count(llvm::StringRef What);
  void problem(std::string Why);
  // The client failed: one problem per run, however many workers saw it.
  void storeFailed();

  std::string Url;
  RedisClient Client;
  BaseDir Base;
  Profile *Prof;
  std::string Build; // buildIdentity()
  std::mutex Lock;
  llvm::StringMap<std::string> RemoteKeys; // by local key
  llvm::StringMap<std::optional<std::vector<std::string>>> Manifests;
  std::string FirstProblem;
  std::atomic<bool> StoreFailureSeen{false};
};

} // namespace torchtidy
