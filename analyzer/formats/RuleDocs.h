// The rules' doc pages (docs/rules/<id>.md), built into the program so that
// reports can explain a finding where the sources are not at hand (code
// review, an editor).
#pragma once

#include "framework/RuleInfo.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace torchtidy {

// The whole page; empty for a check without one.
llvm::StringRef ruleDoc(llvm::StringRef Id);

// The page's "What it flags", "Why", "Bad" and "Good" sections, for SARIF's
// help.markdown; empty without a page.
std::string ruleHelpMarkdown(llvm::StringRef Id);

// The page on the project's home (TORCHTIDY_HOMEPAGE), for SARIF's helpUri
// and an editor's link.
std::string ruleHelpUri(const RuleInfo &R);

} // namespace torchtidy
