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

// A missing quoted header that a file system ignoring letter case (macOS's,
// Windows', where many projects are written) finds: "../utils/zobrist.hpp"
// for ../utils/Zobrist.hpp, looked for beside the including file (at Loc)
// and in the user's include directories. The path the include asks for and
// the file's, both absolute; none when no file, or more than one, matches.
std::optional<std::pair<std::string, std::string>>
caseInsensitiveMatch(clang::Preprocessor &PP, llvm::StringRef Included, clang::SourceLocation Loc);

// Included is what a code generator writes at build time from its own
// input: protoc's "event.pb.h", flatc's "x_generated.h", Qt's uic
// ("ui_mainwindow.h"), moc and rcc. It holds no LibTorch code.
bool madeByCodeGenerator(llvm::StringRef Included);

// The missing header Included lies in a directory that is neither beside
// the file that includes it (at Loc) nor in a user include directory: one
// nowhere ("wx/archive.h" without wxWidgets), or only among the system's
// ("SDL2/SDL_ttf.h" with SDL2 installed, SDL2_ttf not); or named without a
// folder ("TROOT.h") and found nowhere in the project's folders. A
// library's header, not one of the project's own, which could hold its code.
bool inLibraryDirectory(clang::Preprocessor &PP, llvm::StringRef Included, clang::SourceLocation Loc);

} // namespace torchtidy
