#include "speed/ResultCache.h"

#include "frontend/AnalysisOptions.h"
#include "support/AtomicFile.h"
#include "frontend/IncludedFiles.h"
#include "checks/Registry.h"
#include "formats/SummaryJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace torchtidy {
namespace {

constexpr llvm::StringLiteral EntryMagic = "torchtidy-result/2 ";

// Fields are length-prefixed so that ("ab","c") and ("a","bc") differ.
class Hasher {
public:
  Hasher &add(llvm::StringRef S) {
    std::string Len = std::to_string(S.size()) + ":";
    H.update(Len);
    H.update(S);
    return *this;
  }
  std::string hex() { return llvm::toHex(H.final(), /*LowerCase=*/true); }

private:
  llvm::BLAKE3 H;
};

std::string hashOf(llvm::StringRef Data) { return Hasher().add(Data).hex(); }

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

nlohmann::json toJson(const Position &P) {
  return {P.File, P.Line, P.Column, P.LineText};
}

Position positionFrom(const nlohmann::json &J) {
  Position P;
  P.File = J.at(0).get<std::string>();
  P.Line = J.at(1).get<unsigned>();
  P.Column = J.at(2).get<unsigned>();
  P.LineText = J.at(3).get<std::string>();
  return P;
}

nlohmann::json findingsToJson(const std::vector<Finding> &Findings) {
  nlohmann::json Out = nlohmann::json::array();
  for (const Finding &F : Findings) {
    nlohmann::json Notes = nlohmann::json::array(), Fixes = nlohmann::json::array();
    for (const FindingNote &N : F.Notes)
      Notes.push_back({toJson(N.Pos), N.Message});
    for (const FindingFix &X : F.Fixes)
      Fixes.push_back({toJson(X.Pos), X.Offset, X.Length, X.Replacement});
    Out.push_back({{"rule", F.Rule->Id},
                   {"level", static_cast<int>(F.Severity)},
                   {"pos", toJson(F.Pos)},
                   {"end", F.EndColumn},
                   {"message", F.Message},
                   {"notes", Notes},
                   {"fixes", Fixes}});
  }
  return Out;
}

// Throws on any malformation (the entry is then corrupt).
std::vector<Finding> findingsFrom(const nlohmann::json &J) {
  std::vector<Finding> Out;
  for (const nlohmann::json &JF : J) {
    Finding F;
    const CheckFactory *C = findCheck(JF.at("rule").get<std::string>());
    if (!C)
      throw std::runtime_error("unknown check " + JF.at("rule").get<std::string>());
    F.Rule = C->Info;
    F.Severity = static_cast<Level>(JF.at("level").get<int>());
    F.Pos = positionFrom(JF.at("pos"));
    F.EndColumn = JF.at("end").get<unsigned>();
    F.Message = JF.at("message").get<std::string>();
    for (const nlohmann::json &N : JF.at("notes"))
      F.Notes.push_back({positionFrom(N.at(0)), N.at(1).get<std::string>()});
    for (const nlohmann::json &X : JF.at("fixes"))
      F.Fixes.push_back({positionFrom(X.at(0)), X.at(1).get<unsigned>(), X.at(2).get<unsigned>(),
                         X.at(3).get<std::string>()});
    Out.push_back(std::move(F));
  }
  return Out;
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

// What of the run decides the findings besides the TU: it differs per
// .torchtidy.yaml group, so it is part of each key.
static std::string optionsHash(const AnalysisOptions &Opts) {
  Hasher H;
  H.add(TORCHTIDY_VERSION).add(executableIdentity());
  for (const RuleInfo *R : Opts.Checks)
    H.add(R->Id);
  H.add("options");
  for (const auto &[Name, Value] : Opts.Options)
    H.add(Name).add(Value);
  H.add("extra");
  for (const std::string &A : Opts.ExtraArgs)
    H.add(A);
  H.add(Opts.SkipSystemBodies ? "skip" : "noskip");
  return H.hex();
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
  Hasher H;
  H.add(optionsHash(Opts)).add(File).add(Content);
  for (const clang::tooling::CompileCommand &C : Commands) {
    H.add("command").add(C.Directory).add(C.Filename);
    for (const std::string &A : C.CommandLine)
      H.add(A);
  }
  return H.hex();
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
  // "torchtidy-result/2 <hash of the body>\n<body>"
  llvm::StringRef Text = (*Buf)->getBuffer();
  auto [Header, Body] = Text.split('\n');
  if (!Header.consume_front(EntryMagic) || Header != hashOf(Body)) {
    warn("torchtidy: warning: cache entry " + Path +
         " is corrupt (checksum mismatch); analysing the file again");
    return std::nullopt;
  }
  return Body.str();
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
  std::string Path = entryPath(Key);
  std::optional<std::string> Body = readChecked(Path);
  if (!Body)
    return std::nullopt;
  try {
    nlohmann::json J = nlohmann::json::from_msgpack(Body->begin(), Body->end());
    if (!unchanged(J.at("included")) || !systemFilesUnchanged(J.at("system").get<std::string>()))
      return std::nullopt; // an included file changed
    TUResult R;
    R.File = J.at("file").get<std::string>();
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
    writeFileAtomically(Path, (EntryMagic + hashOf(Body) + "\n" + Body).str(), Error);
  if (!Error.empty())
    warn("torchtidy: warning: cannot write the result cache: " + Error);
  return Error.empty();
}

void ResultCache::store(const std::string &Key, const TUResult &Result,
                        llvm::ArrayRef<std::string> IncludedFiles,
                        llvm::ArrayRef<std::string> UserFiles) {
  if (Key.empty() || !Result.analysedFully())
    return;
  // The system headers (LibTorch's ~1500) are the same list in most TUs:
  // they go to one manifest shared by content, checked once per run, so a
  // warm entry stays small and quick to read.
  std::vector<std::string> System(IncludedFiles.begin(), IncludedFiles.end());
  llvm::erase_if(System, [&](const std::string &F) { return llvm::is_contained(UserFiles, F); });
  llvm::sort(System);
  std::optional<nlohmann::json> SystemList = fileList(System);
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
  write(entryPath(Key), {{"file", Result.File},
                         {"system", ManifestKey},
                         {"included", *UserList},
                         {"findings", findingsToJson(Result.Findings)},
                         {"summary", summaryToJson(Result.Summary)}});
}

} // namespace torchtidy
