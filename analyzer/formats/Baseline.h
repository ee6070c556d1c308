// Baselines: a SARIF log of known findings (--write-baseline), and a filter
// that keeps only findings not in it (--baseline), matched on the artifact
// URI and partialFingerprints.primaryLocationLineHash, so that moving
// unrelated lines does not make old findings new; docs/baseline.md.
#pragma once

#include "findings/Finding.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace torchtidy {

struct Baseline {
  std::set<std::pair<std::string, std::string>> Known; // (uri, fingerprint)

  // Error names the file and what is wrong with it.
  static std::optional<Baseline> load(const std::string &Path, std::string &Error);
  // The same on the file's text (test/fuzz); Path is only named in errors.
  static std::optional<Baseline> parse(const std::string &Path, llvm::StringRef Text,
                                       std::string &Error);
  // Removes the findings the baseline knows; returns how many.
  size_t filter(std::vector<Finding> &Findings) const;
};

} // namespace torchtidy
