#include "speed/RemoteCache.h"

#include "frontend/AnalysisOptions.h"
#include "speed/Hashing.h"
#include "support/Profile.h"
#include "speed/ResultCache.h"
#include "speed/ResultJson.h"
#include "formats/SummaryJson.h"

#include <nlohmann/json.hpp>

namespace torchtidy {
namespace {

constexpr llvm::StringLiteral Magic = "torchtidy-remote/1 ";
const std::string ResultPrefix = "torchtidy/1/result/";
const std::string SystemPrefix = "torchtidy/1/system/";

std::string msgpack(const nlohmann::json &J) {
  std::vector<uint8_t> Bytes = nlohmann::json::to_msgpack(J);
  return std::string(Bytes.begin(), Bytes.end());
}

nlohmann::json unpack(const std::string &Body) {
  return nlohmann::json::from_msgpack(Body.begin(), Body.end());
}

// The entries of Program that the TU looked up: what its Seen digest covers.
FunctionTable seenPart(const TUSummary &S, const FunctionTable *Program) {
  FunctionTable Out;
  if (!Program)
    return Out;
  for (const std::string &Ask : S.Asked)
    forEachAsked(*Program, Ask, [&](const std::string &Usr, const std::vector<ReachedEffect> &E) {
      Out.emplace(Usr, E);
    });
  return Out;
}

} // namespace

RemoteCache::RemoteCache(std::string Url, RedisAddress Address, std::chrono::milliseconds Timeout,
                         std::string BaseDirectory, Profile *Prof)
    : Url(std::move(Url)), Client(std::move(Address), Timeout), Base(BaseDirectory), Prof(Prof),
      Build(buildIdentity()) {
  if (Build.empty())
    problem("this torchtidy has no build id and its executable cannot be read, so its entries "
            "cannot be told from another build's; not used");
}

void RemoteCache::keyFor(const std::string &LocalKey, const AnalysisOptions &Opts,
                         const std::vector<clang::tooling::CompileCommand> &Commands,
                         llvm::StringRef File, llvm::StringRef Content) {
  std::string Key = resultKey(Opts, Build, Commands, File, Content,
                              [&](llvm::StringRef P) { return Base.forKey(P); });
  std::lock_guard<std::mutex> G(Lock);
  RemoteKeys[LocalKey] = std::move(Key);
}

std::string RemoteCache::remoteKey(const std::string &LocalKey) {
  std::lock_guard<std::mutex> G(Lock);
  auto It = RemoteKeys.find(LocalKey);
  return It == RemoteKeys.end() ? "" : It->second;
}

void RemoteCache::count(llvm::StringRef What) {
  if (Prof)
    Prof->count(What);
}

void RemoteCache::problem(std::string Why) {
  count("remote-errors");
  std::lock_guard<std::mutex> G(Lock);
  if (FirstProblem.empty())
    FirstProblem = std::move(Why);
}

void RemoteCache::storeFailed() {
  // Workers that were waiting for the store when it failed see it too.
  if (!StoreFailureSeen.exchange(true))
    problem(Client.failure() + "; not used for the rest of this run");
}

std::optional<std::string> RemoteCache::takeWarning() {
  std::lock_guard<std::mutex> G(Lock);
  if (FirstProblem.empty())
    return std::nullopt;
  return "torchtidy: warning: remote cache " + Url + ": " + FirstProblem;
}

std::optional<std::string> RemoteCache::getChecked(const std::string &Key, bool &Absent) {
  std::optional<std::string> Value = Client.get(Key);
  Absent = !Value && !Client.failed();
  if (!Value) {
    if (Client.failed())
      storeFailed();
    return std::nullopt;
  }
  std::optional<llvm::StringRef> Body = unsealed(Magic, *Value);
  if (!Body) {
    problem("entry " + Key + " is corrupt (not a torchtidy entry or checksum mismatch); "
            "analysing the file again");
    return std::nullopt;
  }
  return Body->str();
}

void RemoteCache::putSealed(const std::string &Key, const std::string &Body) {
  if (!Client.set(Key, sealed(Magic, Body)) && Client.failed())
    storeFailed();
}

std::optional<nlohmann::json> RemoteCache::rows(llvm::ArrayRef<std::string> Files, ContentHash Hash) {
  nlohmann::json Rows = nlohmann::json::array();
  for (const std::string &F : Files) {
    std::string H = Hash(F);
    if (H.empty())
      return std::nullopt;
    Rows.push_back({Base.relative(F), H});
  }
  return Rows;
}

bool RemoteCache::unchanged(const nlohmann::json &Rows, ContentHash Hash,
                            std::vector<std::string> &Paths) {
  for (const nlohmann::json &Row : Rows) {
    std::string Path = Base.absolute(Row.at(0).get<std::string>());
    if (Hash(Path) != Row.at(1).get<std::string>())
      return false;
    Paths.push_back(std::move(Path));
  }
  return true;
}

std::optional<std::vector<std::string>> RemoteCache::systemFiles(const std::string &ManifestKey,
                                                                 ContentHash Hash) {
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Manifests.find(ManifestKey);
    if (It != Manifests.end())
      return It->second;
  }
  std::optional<std::vector<std::string>> Files;
  bool Absent;
  std::string Key = SystemPrefix + ManifestKey;
  if (std::optional<std::string> Body = getChecked(Key, Absent)) {
    try {
      std::vector<std::string> Paths;
      if (unchanged(unpack(*Body), Hash, Paths))
        Files = std::move(Paths);
    } catch (const std::exception &E) {
      problem("entry " + Key + " is corrupt (" + E.what() + "); analysing the file again");
    }
  }
  std::lock_guard<std::mutex> G(Lock);
  Manifests[ManifestKey] = Files;
  return Files;
}

std::optional<RemoteHit> RemoteCache::lookup(const std::string &LocalKey, ContentHash Hash) {
  std::string Key = remoteKey(LocalKey);
  if (Key.empty() || !usable())
    return std::nullopt;
  bool Absent;
  std::optional<std::string> Body = getChecked(ResultPrefix + Key, Absent);
  if (!Body) {
    if (Absent)
      count("remote-misses");
    return std::nullopt;
  }
  try {
    nlohmann::json J = unpack(*Body);
    RemoteHit Hit;
    std::optional<std::vector<std::string>> System = systemFiles(J.at("system").get<std::string>(), Hash);
    if (!System || !unchanged(J.at("included"), Hash, Hit.UserFiles)) {
      if (usable())
        count("remote-misses"); // an included file changed
      return std::nullopt;
    }
    Hit.IncludedFiles = Hit.UserFiles;
    Hit.IncludedFiles.insert(Hit.IncludedFiles.end(), System->begin(), System->end());
    Hit.Result.File = J.at("file").get<std::string>();
    Hit.Result.Findings = findingsFrom(J.at("findings"));
    Hit.Result.Summary = summaryFrom(J.at("summary"));
    FunctionTable Seen = summaryFrom(J.at("seen")).Functions;
    auto Absolute = [&](llvm::StringRef P) { return Base.absolute(P); };
    relocate(Hit.Result, Absolute);
    relocate(Seen, Absolute);
    // The digest of what it was analysed with, as this checkout names it.
    Hit.Result.Summary.Seen = digestOf(Seen, Hit.Result.Summary.Asked);
    count("remote-hits");
    return Hit;
  } catch (const std::exception &E) {
    problem("entry " + ResultPrefix + Key + " is corrupt (" + E.what() + "); analysing the file again");
    return std::nullopt;
  }
}

void RemoteCache::store(const std::string &LocalKey, const TUResult &Result,
                        llvm::ArrayRef<std::string> IncludedFiles,
                        llvm::ArrayRef<std::string> UserFiles, const FunctionTable *Program,
                        ContentHash Hash) {
  std::string Key = remoteKey(LocalKey);
  if (Key.empty() || !usable())
    return;
  std::vector<std::string> System = systemHeadersOf(IncludedFiles, UserFiles);
  std::optional<nlohmann::json> SystemRows = rows(System, Hash);
  std::optional<nlohmann::json> UserRows = rows(UserFiles, Hash);
  if (!SystemRows || !UserRows)
    return; // a file is gone already
  std::string Manifest = msgpack(*SystemRows);
  std::string ManifestKey = hashOf(Manifest);
  bool Known;
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Manifests.find(ManifestKey);
    Known = It != Manifests.end() && It->second;
  }
  if (!Known) {
    putSealed(SystemPrefix + ManifestKey, Manifest);
    std::lock_guard<std::mutex> G(Lock);
    Manifests[ManifestKey] = std::move(System);
  }
  auto Relative = [&](llvm::StringRef P) { return Base.relative(P); };
  TUResult Rel = Result;
  relocate(Rel, Relative);
  TUSummary Seen;
  Seen.Functions = seenPart(Result.Summary, Program);
  relocate(Seen.Functions, Relative);
  putSealed(ResultPrefix + Key, msgpack({{"file", Rel.File},
                                         {"system", ManifestKey},
                                         {"included", *UserRows},
                                         {"findings", findingsToJson(Rel.Findings)},
                                         {"summary", summaryToJson(Rel.Summary)},
                                         {"seen", summaryToJson(Seen)}}));
}

} // namespace torchtidy
