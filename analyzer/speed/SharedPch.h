// Preambles, as clangd has them: the leading block of #include lines of a
// file (system and project headers alike, up to its first line of code) is
// precompiled with the file's flags into the cache directory and loaded with
// -include-pch, instead of parsing those headers again. A preamble is keyed
// by the flags, the working directory, the include lines (and for quoted
// includes the file's directory) and clang's version; every file with the
// same block and flags shares it, and it is rebuilt when any header it was
// built from changed size or time (PreambleStore).
//
// It is used only where it cannot change the findings: the command has no
// -include, -include-pch, -imacros or -x (but -x c++) of its own, and
// every project header in it has an include guard (the file includes them
// again after loading it). The project headers' declarations come from the PCH; the
// frontend traverses them as it would have parsed them (TURun).
#pragma once

#include "speed/PreambleStore.h"

#include "llvm/ADT/StringMap.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace torchtidy {

struct AnalysisOptions;
class FileStamps;
class Profile;

class SharedPch {
public:
  SharedPch(std::string CacheDir, const AnalysisOptions &Opts, FileStamps &Stamps,
            uint64_t MaxBytes = DefaultPchCacheBytes);

  // Told the number of PCHs about to be built (the language server shows
  // progress: a build takes seconds).
  void onBuild(std::function<void(size_t)> F) { OnBuild = std::move(F); }

  // Decides which preamble each file can use and builds (Jobs at once)
  // those that are missing or stale, then evicts past the size limit.
  void prepare(const clang::tooling::CompilationDatabase &DB,
               const std::vector<std::string> &Files, unsigned Jobs, Profile *Prof);
  // The PCH for File, or "" to parse it without one.
  std::string pchFor(const std::string &File) const;
  // The files that PCH was built from (for the result cache), and the
  // project headers among them (whose declarations the checks traverse).
  llvm::ArrayRef<std::string> inputsOf(const std::string &File) const;
  llvm::ArrayRef<std::string> userInputsOf(const std::string &File) const;
  // PCHs that could not be built or used, sorted, for stderr.
  std::vector<std::string> takeWarnings();

private:
  struct Plan {
    std::string Key;
    std::vector<std::string> Args; // the command without its source file
    std::string Directory;
    std::string Includes;          // the #include lines
    bool Ready = false;
    PreambleMeta Meta;             // once Ready
  };
  const Plan *planOf(const std::string &File) const;
  const char *build(Plan &P);

  PreambleStore Store;
  const AnalysisOptions &Opts;
  FileStamps &Stamps; // shared with the result cache
  std::map<std::string, Plan> Plans;        // by key
  llvm::StringMap<std::string> KeyOfFile;
  std::mutex Lock;
  std::vector<std::string> Warnings;
  std::function<void(size_t)> OnBuild;
};

// The #include lines a source text begins with (comments aside, a comment
// after an include allowed); "" when it begins otherwise.
std::string leadingIncludes(llvm::StringRef Text);

} // namespace torchtidy
