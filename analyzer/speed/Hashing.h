// Hashes shared by the result caches, local and remote: content hashes,
// checksummed envelopes for stored entries, and the key of a TU's result.
#pragma once

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"

#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

struct AnalysisOptions;

// Fields are length-prefixed so that ("ab","c") and ("a","bc") differ.
class Hasher {
public:
  Hasher &add(llvm::StringRef S);
  std::string hex(); // lower-case

private:
  llvm::BLAKE3 H;
};

std::string hashOf(llvm::StringRef Data);

// "<Magic><hash of Body>\n<Body>", and back: none when Text is not one.
std::string sealed(llvm::StringRef Magic, llvm::StringRef Body);
std::optional<llvm::StringRef> unsealed(llvm::StringRef Magic, llvm::StringRef Text);

// The key of File's result: Build (what identifies this torchtidy), Opts'
// checks, options and extra flags, File, its Content hash and its compile
// Commands. Every path and argument goes through MapPath first (the remote
// cache names them relative to a base directory).
std::string resultKey(const AnalysisOptions &Opts, llvm::StringRef Build,
                      const std::vector<clang::tooling::CompileCommand> &Commands,
                      llvm::StringRef File, llvm::StringRef Content,
                      llvm::function_ref<std::string(llvm::StringRef)> MapPath);

// The same on every machine for the same torchtidy build: the linker's
// build id, else the executable's content hash; empty if neither is known.
std::string buildIdentity();

} // namespace torchtidy
