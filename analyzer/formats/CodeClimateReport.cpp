// GitLab's Code Quality report, the Code Climate issue format that GitLab
// shows in merge requests: an array of issues with a path relative to the
// repository (the working directory, as SARIF's %SRCROOT%).
#include "formats/Report.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SHA1.h"
#include "llvm/ADT/StringExtras.h"

#include <nlohmann/json.hpp>

namespace torchtidy {
namespace {

const char *severity(Level L) {
  return L == Level::Error ? "critical" : L == Level::Note ? "info" : "major";
}

} // namespace

std::string toCodeClimate(const std::vector<Finding> &Findings) {
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::string Root = Cwd.str().str() + "/";
  nlohmann::json Issues = nlohmann::json::array();
  for (const Finding &F : Findings) {
    llvm::StringRef Path = F.Pos.File;
    Path.consume_front(Root);
    // Unique per issue, stable when unrelated lines move: the line-hash
    // fingerprint is per file, so the path is hashed with it.
    std::string Id = llvm::toHex(llvm::SHA1::hash(llvm::arrayRefFromStringRef(Path.str() + "\n" + F.Fingerprint)),
                                 /*LowerCase=*/true);
    Issues.push_back({{"type", "issue"},
                      {"check_name", F.Rule->Id},
                      {"description", F.Message},
                      {"categories", {"Performance"}},
                      {"severity", severity(F.Severity)},
                      {"fingerprint", Id},
                      {"location", {{"path", Path.str()},
                                    {"lines", {{"begin", F.Pos.Line}}}}}});
  }
  return Issues.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace torchtidy
