#include "lsp/DocumentAnalysis.h"

#include "frontend/CompileDb.h"
#include "driver/ConfiguredAnalysis.h"
#include "frontend/IncludedFiles.h"
#include "speed/ResultCache.h"
#include "speed/SharedPch.h"
#include "config/Suppressions.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace torchtidy::lsp {

std::shared_ptr<clang::tooling::CompilationDatabase>
DocumentAnalysis::databaseFor(const std::string &Path, std::string &Error) {
  using namespace clang::tooling;
  std::string Json = findCompileCommands(llvm::sys::path::parent_path(Path));
  if (Json.empty())
    return nullptr;
  std::lock_guard<std::mutex> G(Lock);
  Loaded &L = Databases[Json];
  std::string Stamp = fileStamp(Json);
  if (L.DB && L.Stamp == Stamp)
    return L.DB;
  auto DB = JSONCompilationDatabase::loadFromFile(Json, Error, JSONCommandLineSyntax::AutoDetect);
  if (!DB) {
    Error = Json + ": " + Error;
    Databases.erase(Json);
    return nullptr;
  }
  // Headers and new files get the command of their nearest neighbour.
  L = {Stamp, inferMissingCompileCommands(std::move(DB))};
  return L.DB;
}

void DocumentAnalysis::forgetDatabases() {
  std::lock_guard<std::mutex> G(Lock);
  Databases.clear();
}

DocumentResult DocumentAnalysis::run(const std::string &Path,
                                     const std::map<std::string, std::string> &Unsaved,
                                     const std::function<void()> &OnPchBuild) {
  DocumentResult Out;
  std::string DBError;
  auto DB = databaseFor(Path, DBError);
  if (!DB) {
    Out.NoDatabase = DBError.empty();
    if (!DBError.empty())
      Out.Failure = DBError;
    return Out;
  }
  ConfigOverrides Overrides;
  Overrides.Checks = S.Checks;
  // Read afresh each time: an edited .torchtidy.yaml counts at once.
  ConfigFinder Finder(Overrides);

  AnalysisOptions Opts;
  Opts.Jobs = 1;
  Opts.TimeoutSeconds = S.TimeoutSeconds;
  Opts.Overlays = Unsaved;
  // Stamps and hashes are memoized for one run: a server's runs are many.
  FileStamps Stamps;
  std::string CacheDir = S.CacheDir.empty() ? defaultCacheDir() : S.CacheDir;
  std::unique_ptr<ResultCache> Cache;
  std::unique_ptr<SharedPch> Pch;
  // The cache keys on the files' contents on disk: an unsaved buffer would
  // store findings under the wrong key.
  if (S.UseCache && !CacheDir.empty() && Unsaved.empty()) {
    Cache = std::make_unique<ResultCache>(CacheDir, Stamps);
    Opts.Cache = Cache.get();
  }
  // The preamble is planned from the unsaved buffer, and not used while a
  // header it holds has one.
  if (S.UsePch && !CacheDir.empty()) {
    Pch = std::make_unique<SharedPch>(CacheDir, Opts, Stamps);
    Pch->onBuild([&](size_t) { OnPchBuild(); });
    Opts.Pch = Pch.get();
  }
  ConfiguredRun Run = analyseConfigured(*DB, {Path}, Finder, Opts, /*ShowProgress=*/false);
  Out.Errors = Run.ConfigErrors;
  auto addAll = [&](const std::vector<std::string> &More) {
    Out.Errors.insert(Out.Errors.end(), More.begin(), More.end());
  };
  if (Cache)
    addAll(Cache->takeWarnings());
  if (Pch)
    addAll(Pch->takeWarnings());
  if (Run.Results.empty())
    return Out; // excluded, or its configuration is malformed
  TUResult &R = Run.Results.front();
  Out.Failure = R.Failure;
  addAll(R.Errors);
  sortAndDeduplicate(R.Findings);
  applySuppressions(R.Findings, {Path}, Out.Errors, Unsaved);
  for (Finding &F : R.Findings)
    if (!F.Suppressed && F.Pos.File == Path)
      Out.Findings.push_back(std::move(F));
  return Out;
}

} // namespace torchtidy::lsp
