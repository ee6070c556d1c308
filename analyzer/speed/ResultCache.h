// The result cache: a translation unit whose compile command, source, included
// files, torchtidy build and enabled checks/options are unchanged gets its
// findings from the cache, without being parsed. As in ccache's direct mode,
// the key covers what is known before parsing (the command, the main file's
// content); the entry records every file the TU read with its content hash,
// and a hit requires all of them to hash the same again. The system headers
// among them are kept in a manifest shared between entries.
//
// Only TUs without compile errors are stored: one with errors is analysed
// every time. Missing includes alone are no obstacle: as in ccache, the
// entry records the directories each was looked for in, and a hit requires
// that none of them holds it now (a header installed later counts); such
// entries stay local (the directories are this machine's).
// Entries are written atomically and carry a checksum; a corrupt one is
// reported as a warning and the TU analysed again.
//
// With a remote cache attached (speed/RemoteCache.h), a local miss asks the
// remote one, whose hit fills the local cache; results are stored in both.
#pragma once

#include "findings/Finding.h"
#include "frontend/IncludedFiles.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringMap.h"

#include <nlohmann/json_fwd.hpp>

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

struct AnalysisOptions;
class RemoteCache;

// $TORCHTIDY_CACHE_DIR, else $XDG_CACHE_HOME/torchtidy, else ~/.cache/torchtidy.
std::string defaultCacheDir();

// The files of Included that are not among UserFiles, sorted.
std::vector<std::string> systemHeadersOf(llvm::ArrayRef<std::string> Included,
                                         llvm::ArrayRef<std::string> UserFiles);

class ResultCache {
public:
  ResultCache(std::string Dir, FileStamps &Stamps);
  void attachRemote(RemoteCache *R) { Remote = R; }

  // Empty when the file cannot be read (the TU is then analysed, not stored).
  // The key covers the torchtidy build and Opts' checks, options and flags.
  std::string key(const AnalysisOptions &Opts,
                  const std::vector<clang::tooling::CompileCommand> &Commands,
                  llvm::StringRef File);
  std::optional<TUResult> lookup(const std::string &Key);
  // UserFiles: those of IncludedFiles that are not system headers; Missing:
  // the includes that found no file (Result's only errors, else nothing is
  // stored); Program: the other TUs' summaries the result was analysed
  // with (none: an empty table).
  void store(const std::string &Key, const TUResult &Result,
             llvm::ArrayRef<std::string> IncludedFiles, llvm::ArrayRef<std::string> UserFiles,
             llvm::ArrayRef<MissingHeader> Missing, const FunctionTable *Program);
  // Corrupt entries and failed writes, sorted, for stderr.
  std::vector<std::string> takeWarnings();

private:
  std::optional<TUResult> lookupLocal(const std::string &Key);
  void storeLocal(const std::string &Key, const TUResult &Result,
                  llvm::ArrayRef<std::string> IncludedFiles, llvm::ArrayRef<std::string> UserFiles,
                  llvm::ArrayRef<MissingHeader> Missing = {});
  std::string entryPath(const std::string &Key) const;
  std::string manifestPath(const std::string &Key) const;
  // An entry's body after its checksum; none (and a warning) if corrupt.
  std::optional<std::string> readChecked(const std::string &Path);
  bool write(const std::string &Path, const nlohmann::json &J);
  // [path, stamp, hash] rows; none if a file is gone.
  std::optional<nlohmann::json> fileList(llvm::ArrayRef<std::string> Files);
  bool unchanged(const nlohmann::json &Files);
  // Memoized per run: most entries share one manifest.
  bool systemFilesUnchanged(const std::string &ManifestKey);
  // Content hash (hex), memoized for the run; empty if unreadable.
  std::string contentHash(llvm::StringRef Path);
  // A hash taken from an entry whose file has the recorded size and time.
  void knownHash(llvm::StringRef Path, llvm::StringRef Hash);
  void warn(std::string Message);

  std::string Dir;
  FileStamps &Stamps; // shared with the PCH's checks
  RemoteCache *Remote = nullptr;
  std::mutex Lock;
  llvm::StringMap<std::string> Hashes;
  llvm::StringMap<bool> ManifestVerdicts;
  std::vector<std::string> Warnings;
};

} // namespace torchtidy
