// Headers a build system writes at configure time, absent when a file is
// analysed from its source tree alone (hand-written flags, no build folder).
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringRef.h"

namespace torchtidy {

// For a missing CMake export header (generate_export_header's
// "<name>_export.h"), defines its macros empty where it was included and
// returns true. They only decorate declarations with visibility, so the
// analysis is the same as with the header; without them
// `class NAME_EXPORT Detector {` does not parse and Clang drops the class.
bool standInForGeneratedHeader(clang::Preprocessor &PP, llvm::StringRef Included,
                               clang::SourceLocation Loc);

} // namespace torchtidy
