// --dump-config: the effective configuration as YAML that reads back with
// --config-file.
#include "config/Config.h"
#include "checks/Registry.h"

namespace torchtidy {
namespace {

std::string quote(llvm::StringRef S) {
  std::string Out = "'";
  for (char Ch : S)
    Out += Ch == '\'' ? std::string("''") : std::string(1, Ch);
  return Out + "'";
}

} // namespace

std::string dumpConfig(const Config &C) {
  std::string Out = "---\n# " + (C.File.empty() ? std::string("no .torchtidy.yaml: the defaults")
                                                 : "from " + C.File) + "\n";
  Out += "Checks: " + quote(C.Checks) + "\n";
  Out += "WarningsAsErrors: " + quote(C.WarningsAsErrors) + "\n";
  if (C.HeaderFilterRegex)
    Out += "HeaderFilterRegex: " + quote(*C.HeaderFilterRegex) + "\n";
  else
    Out += "# HeaderFilterRegex unset: findings in every non-system header are reported\n";
  Out += "ExcludePaths:" + std::string(C.ExcludePaths.empty() ? " []" : "") + "\n";
  for (const std::string &G : C.ExcludePaths)
    Out += "  - " + quote(G) + "\n";
  if (!C.Remote.Url.empty())
    Out += "RemoteCache: " + quote(C.Remote.Url) + "\n";
  if (!C.Remote.BaseDir.empty())
    Out += "CacheBaseDir: " + quote(C.Remote.BaseDir) + "\n";
  if (C.Remote.TimeoutMs)
    Out += "RemoteCacheTimeout: " + std::to_string(C.Remote.TimeoutMs) + "\n";
  CheckOptions::Map Effective = C.Options;
  for (const RuleInfo *R : C.enabledChecks())
    for (const RuleOption &O : R->Options)
      Effective.try_emplace(R->Id + "." + O.Name, O.Default);
  Out += "CheckOptions:" + std::string(Effective.empty() ? " {}" : "") + "\n";
  for (const auto &[Key, Value] : Effective)
    Out += "  " + Key + ": " + quote(Value) + "\n";
  return Out + "...\n";
}

} // namespace torchtidy
