// The shared precompiled header: translation units that begin with the same
// LibTorch includes (torch/torch.h, torch/script.h, ...) under the same flags
// get one PCH of those includes, built once into the cache directory and
// loaded with -include-pch instead of parsing LibTorch again. A PCH is
// keyed by the flags, the working directory and the include lines, and is
// rebuilt when any header it was built from changed size or time.
//
// It is used only where it cannot change the findings: the TU's first
// tokens are those includes (comments aside), the command has no -include,
// -include-pch, -imacros or -x of its own, and every header the PCH holds
// is a system header (whose function bodies the analysis skips anyway; the
// PCH is built skipping them too, or not, as the analysis does).
#pragma once

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
  SharedPch(std::string CacheDir, const AnalysisOptions &Opts, FileStamps &Stamps);

  // Files that must share a PCH before it is built: two for one run, one
  // for the language server, which reuses it at every edit.
  void setMinUsers(unsigned N) { MinUsers = N; }
  // Told the number of PCHs about to be built (the language server shows
  // progress: a build takes seconds).
  void onBuild(std::function<void(size_t)> F) { OnBuild = std::move(F); }

  // Decides which PCH each file can use and builds (Jobs at once) those
  // that are missing or stale and would serve two files or more.
  void prepare(const clang::tooling::CompilationDatabase &DB,
               const std::vector<std::string> &Files, unsigned Jobs, Profile *Prof);
  // The PCH for File, or "" to parse it without one.
  std::string pchFor(const std::string &File) const;
  // The headers that PCH was built from (for the result cache).
  llvm::ArrayRef<std::string> inputsOf(const std::string &File) const;
  // PCHs that could not be built or used, sorted, for stderr.
  std::vector<std::string> takeWarnings();

private:
  struct Plan {
    std::string Key;
    std::vector<std::string> Args; // the command without its source file
    std::string Directory;
    std::string Includes;          // the #include lines
    unsigned Users = 0;
    bool Ready = false;
    std::vector<std::string> Inputs; // once Ready
  };
  const Plan *planOf(const std::string &File) const;
  bool upToDate(Plan &P) const;
  void build(Plan &P);
  std::string path(const std::string &Key, llvm::StringRef Ext) const;

  std::string Dir;
  const AnalysisOptions &Opts;
  FileStamps &Stamps; // shared with the result cache
  std::map<std::string, Plan> Plans;        // by key
  llvm::StringMap<std::string> KeyOfFile;
  std::mutex Lock;
  std::vector<std::string> Warnings;
  unsigned MinUsers = 2;
  std::function<void(size_t)> OnBuild;
};

// The #include lines a source text begins with, as long as they name
// LibTorch headers (isTorchHeader); "" when it begins otherwise.
std::string leadingTorchIncludes(llvm::StringRef Text);

} // namespace torchtidy
