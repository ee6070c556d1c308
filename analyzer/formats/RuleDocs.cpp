#include "formats/RuleDocs.h"

#include "llvm/ADT/SmallVector.h"

#include <map>

namespace torchtidy {

// Generated from docs/rules/*.md at configure time (analyzer/CMakeLists.txt).
const std::map<std::string, const char *> &embeddedRuleDocs();

llvm::StringRef ruleDoc(llvm::StringRef Id) {
  const auto &Docs = embeddedRuleDocs();
  auto It = Docs.find(Id.str());
  return It == Docs.end() ? llvm::StringRef() : llvm::StringRef(It->second);
}

std::string ruleHelpMarkdown(llvm::StringRef Id) {
  static const char *const Wanted[] = {"What it flags", "Why", "Bad", "Good"};
  llvm::SmallVector<llvm::StringRef, 8> Sections;
  ruleDoc(Id).split(Sections, "\n## ");
  std::string Out;
  for (const char *Title : Wanted)
    for (size_t I = 1; I < Sections.size(); ++I) // [0] is the page's title
      if (Sections[I].starts_with(std::string(Title) + "\n"))
        Out += "## " + Sections[I].rtrim().str() + "\n\n";
  return llvm::StringRef(Out).rtrim().str();
}

std::string ruleHelpUri(const RuleInfo &R) {
  return std::string(TORCHTIDY_HOMEPAGE) + "/blob/main/" + R.docPath();
}

} // namespace torchtidy
