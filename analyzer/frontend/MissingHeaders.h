// Headers absent where a file is analysed: written by a build system at
// configure time (hand-written flags, no build folder), or a library's that
// is not installed.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <utility>

namespace torchtidy {

// For a missing CMake export header (generate_export_header's
// "<name>_export.h"), defines its macros empty where it was included and
// returns true. They only decorate declarations with visibility, so the
// analysis is the same as with the header; without them
// `class NAME_EXPORT Detector {` does not parse and Clang drops the class.
bool standInForGeneratedHeader(clang::Preprocessor &PP, llvm::StringRef Included,
                               clang::SourceLocation Loc);

// The missing header Included ("wx/archive.h") lies in a directory ("wx")
// that is nowhere it was looked for: not beside the file that includes it
// (at Loc), not in an include directory. A library that is not installed,
// not one of the project's own headers, which could hold the project's code.
// A missing quoted header that a file system ignoring letter case (macOS's,
// Windows', where many projects are written) finds: "../utils/zobrist.hpp"
// for ../utils/Zobrist.hpp, looked for beside the including file (at Loc)
// and in the user's include directories. The path the include asks for and
// the file's, both absolute; none when no file, or more than one, matches.
std::optional<std::pair<std::string, std::string>>
caseInsensitiveMatch(clang::Preprocessor &PP, llvm::StringRef Included, clang::SourceLocation Loc);

bool inAbsentLibraryDirectory(clang::Preprocessor &PP, llvm::StringRef Included,
                              clang::SourceLocation Loc);

} // namespace torchtidy
