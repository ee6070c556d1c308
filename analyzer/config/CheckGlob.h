// clang-tidy's check filter: comma-separated globs, '-' negates, the last
// glob that matches a check decides.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <string>
#include <vector>

namespace torchtidy {

class CheckGlob {
public:
  // Error names the offending glob; empty on success.
  static CheckGlob parse(llvm::StringRef Text, std::string &Error);
  bool enabled(llvm::StringRef CheckId) const;

private:
  struct Item {
    bool Positive;
    std::string Glob;
    std::shared_ptr<llvm::Regex> Re;
  };
  std::vector<Item> Items;
};

} // namespace torchtidy
