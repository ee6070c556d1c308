// Check ids and option keys as users type them: a glob that names no check
// (a typo such as 'torch-hardcoded-devices' would otherwise silently turn
// nothing on or off), an option no check has, and the closest real name.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace torchtidy {

// Why Key ("<check>.<Option>") names no option of a registered check;
// empty when it does.
std::string checkOptionError(llvm::StringRef Key);

// One message per glob of Globs (the --checks syntax) that matches no
// registered check: "'torch-x' matches no check; did you mean 'torch-y'?".
std::vector<std::string> globsMatchingNoCheck(llvm::StringRef Globs);

} // namespace torchtidy
