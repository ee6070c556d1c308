#include "cli/SpeedOptions.h"

#include "frontend/CompileDb.h"
#include "frontend/WorkerMemory.h"
#include "speed/BaseDir.h"

namespace cl = llvm::cl;

namespace torchtidy {

cl::OptionCategory &speedCategory() {
  static cl::OptionCategory C("torchtidy speed options");
  return C;
}

static cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Result cache and shared precompiled headers (default: $TORCHTIDY_CACHE_DIR, "
             "else $XDG_CACHE_HOME/torchtidy, else ~/.cache/torchtidy)"),
    cl::value_desc("dir"), cl::cat(speedCategory()));
static cl::opt<bool> NoCache("no-cache",
                             cl::desc("Analyse every file; neither read nor write cached results"),
                             cl::cat(speedCategory()));
static cl::opt<bool> NoPch("no-pch",
                           cl::desc("Parse the headers a file begins with in every file instead of "
                                    "sharing a precompiled header of them"),
                           cl::cat(speedCategory()));
static cl::opt<std::string> PchCacheSize(
    "pch-cache-size",
    cl::desc("Remove the least recently used precompiled headers past this size (K, M or G; "
             "default: 4G)"),
    cl::value_desc("size"), cl::init("4G"), cl::cat(speedCategory()));
static cl::opt<unsigned> MaxMemory(
    "max-memory",
    cl::desc("Memory the workers may use together, in MB; lowers -j (default: what is available)"),
    cl::value_desc("MB"), cl::init(0), cl::cat(speedCategory()));
static cl::opt<bool> ProfileOpt("profile",
                                cl::desc("Print where the time went (parse, precompiled header, "
                                         "matching per check, reporting) to stderr"),
                                cl::cat(speedCategory()));
static cl::opt<std::string> RemoteUrl(
    "remote-cache",
    cl::desc("Share results with other machines and checkouts through this Redis store: "
             "redis://host:port[/db] (default: RemoteCache of .torchtidy.yaml)"),
    cl::value_desc("url"), cl::cat(speedCategory()));
static cl::opt<std::string> BaseDirOpt(
    "cache-base-dir",
    cl::desc("The remote cache names files under this directory relative to it (default: "
             "CacheBaseDir of .torchtidy.yaml, else the compile database's project root)"),
    cl::value_desc("dir"), cl::cat(speedCategory()));
static cl::opt<unsigned> RemoteTimeout(
    "remote-cache-timeout",
    cl::desc("Stop using the remote cache for the run after waiting this long to connect or for "
             "an answer (default: RemoteCacheTimeout of .torchtidy.yaml, else 1000)"),
    cl::value_desc("ms"), cl::init(0), cl::cat(speedCategory()));
// For measuring and for the test that findings do not depend on it.
static cl::opt<bool> NoSkipSystemBodies("no-skip-system-bodies",
                                        cl::desc("Parse function bodies in system headers"),
                                        cl::Hidden, cl::cat(speedCategory()));

// Peak memory of one worker on a TU including torch/torch.h: ~400 MB parsed
// from source, less with the shared PCH; kept with a margin.
constexpr uint64_t WorkerMB = 700;

std::string SpeedSetup::apply(AnalysisOptions &Opts, bool Quiet) {
  std::optional<uint64_t> PchBytes = parseByteSize(PchCacheSize);
  if (!PchBytes)
    return "--pch-cache-size=" + PchCacheSize + ": not a size (a number, then K, M or G)";
  Opts.SkipSystemBodies = !NoSkipSystemBodies;
  unsigned Bounded = jobsForMemory(Opts.Jobs, MaxMemory, WorkerMB);
  if (Bounded < Opts.Jobs && !Quiet)
    llvm::errs() << "torchtidy: " << Bounded << " worker(s) instead of " << Opts.Jobs << ": "
                 << (MaxMemory ? "--max-memory=" + std::to_string(MaxMemory) + " MB"
                               : std::to_string(availableMB()) + " MB available")
                 << ", about " << WorkerMB << " MB each\n";
  Opts.Jobs = Jobs = Bounded;
  if (ProfileOpt) {
    Prof = std::make_unique<Profile>();
    Opts.Prof = Prof.get();
  }
  std::string Dir = CacheDir.empty() ? defaultCacheDir() : CacheDir.getValue();
  if (Dir.empty()) {
    if (!Quiet)
      llvm::errs() << "torchtidy: no cache directory (no $HOME): caching nothing\n";
    return "";
  }
  if (!NoCache) {
    Cache = std::make_unique<ResultCache>(Dir, Stamps);
    Opts.Cache = Cache.get();
  }
  if (!NoPch) {
    Pch = std::make_unique<SharedPch>(Dir, Opts, Stamps, *PchBytes);
    Opts.Pch = Pch.get();
  }
  return "";
}

std::string SpeedSetup::useRemote(ConfigFinder &Finder, const clang::tooling::CompilationDatabase &DB,
                                  llvm::ArrayRef<std::string> Sources) {
  RemoteSettings CommandLine, FromConfig;
  std::string Error;
  // A malformed configuration is reported with the analysis.
  if (std::shared_ptr<const Config> C = Sources.empty() ? nullptr : Finder.forFile(Sources.front(), Error))
    FromConfig = C->Remote;
  Error.clear();
  if (RemoteUrl.getNumOccurrences() && !parseRedisUrl(RemoteUrl, Error))
    return "--remote-cache=" + Error;
  CommandLine.Url = RemoteUrl;
  if (!BaseDirOpt.empty())
    CommandLine.BaseDir = makeAbsolute(BaseDirOpt);
  CommandLine.TimeoutMs = RemoteTimeout;
  RemoteSettings S = mergeRemoteSettings(CommandLine, FromConfig);
  if (S.Url.empty() || !Cache)
    return ""; // --no-cache: neither cache
  std::optional<RedisAddress> Address = parseRedisUrl(S.Url, Error);
  Remote = std::make_unique<RemoteCache>(S.Url, *Address, std::chrono::milliseconds(S.TimeoutMs),
                                         S.BaseDir.empty() ? projectRoot(DB, Sources) : S.BaseDir,
                                         Prof.get());
  Cache->attachRemote(Remote.get());
  return "";
}

void SpeedSetup::analysed(llvm::raw_ostream &Err) {
  SinceAnalysis = std::make_unique<Stopwatch>();
  if (Remote)
    if (std::optional<std::string> W = Remote->takeWarning())
      Err << *W << "\n";
  if (Cache)
    for (const std::string &W : Cache->takeWarnings())
      Err << W << "\n";
  if (Pch)
    for (const std::string &W : Pch->takeWarnings())
      Err << W << "\n";
}

void SpeedSetup::finish(llvm::raw_ostream &Err) {
  if (!Prof)
    return;
  if (SinceAnalysis)
    Prof->addPhase("reporting", SinceAnalysis->seconds());
  Prof->print(Err, Wall.seconds(), Jobs);
}

} // namespace torchtidy
