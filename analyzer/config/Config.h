// .torchtidy.yaml: clang-tidy's keys (Checks, CheckOptions,
// WarningsAsErrors, HeaderFilterRegex) plus ExcludePaths and the remote
// result cache's (speed/RemoteSettings.h), found in a
// source's directory or the nearest parent; docs/configuration.md.
#pragma once

#include "config/CheckGlob.h"
#include "framework/Check.h"
#include "findings/Finding.h"
#include "config/RemoteSettings.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

struct Config {
  std::string File;  // the .torchtidy.yaml read; empty for the defaults
  std::string Dir;   // ExcludePaths are relative to it
  std::string Checks = "torch-*";
  std::string WarningsAsErrors;
  std::optional<std::string> HeaderFilterRegex; // unset: every non-system header
  std::vector<std::string> ExcludePaths;
  CheckOptions::Map Options;
  RemoteSettings Remote; // the run's is the first source's
  // Problems that do not stop the analysis: a check glob matching no check.
  std::vector<std::string> Warnings;

  // Compiled from the text above by finish().
  CheckGlob ChecksGlob, ErrorsGlob;
  std::shared_ptr<llvm::Regex> HeaderFilter;
  std::vector<std::shared_ptr<llvm::Regex>> Exclude;

  std::vector<const RuleInfo *> enabledChecks() const;
  bool excluded(llvm::StringRef Path) const;
};

// Command-line settings, which win over the file's.
struct ConfigOverrides {
  std::optional<std::string> Checks;           // appended to the file's, as clang-tidy does
  std::optional<std::string> WarningsAsErrors; // appended too
  std::optional<std::string> HeaderFilterRegex;
  std::string ConfigFile;                      // --config-file: no lookup
};

// Parses one file's text over Base. Error: "<file>:<line>:<col>: <cause>",
// naming the key; empty on success.
std::optional<Config> parseConfig(llvm::StringRef File, llvm::StringRef Text, Config Base,
                                  std::string &Error);

// Compiles the globs and the regex; Error names what is wrong.
// ExcludePaths globs: '*' and '?' stop at '/', '**' does not, '[...]' a class.
bool finishConfig(Config &C, std::string &Error);

// Finds the configuration of each source, reading each directory's
// .torchtidy.yaml once.
class ConfigFinder {
public:
  explicit ConfigFinder(ConfigOverrides O) : Overrides(std::move(O)) {}
  // Null with Error set when the file that applies is malformed.
  std::shared_ptr<const Config> forFile(llvm::StringRef Source, std::string &Error);
  // The warnings of every configuration file read so far, each once.
  const std::vector<std::string> &warnings() const { return Warnings; }

private:
  struct Entry {
    std::shared_ptr<const Config> C;
    std::string Error;
  };
  const Entry &forDirectory(llvm::StringRef Dir);
  const Entry &load(const std::string &File);
  ConfigOverrides Overrides;
  llvm::StringMap<Entry> Dirs, Files;
  std::vector<std::string> Warnings;
};

// Applies a translation unit's configuration to its findings: those in a
// header that HeaderFilterRegex does not match, or in ExcludePaths, are
// dropped; those matching WarningsAsErrors become errors.
void applyConfig(const Config &C, TUResult &R);

// The effective configuration as YAML (--dump-config), with every option
// of the enabled checks.
std::string dumpConfig(const Config &C);

} // namespace torchtidy
