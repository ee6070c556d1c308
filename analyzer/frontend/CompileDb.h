// Where compile commands come from: '-p <dir>', a compile_commands.json found
// beside the sources (in a directory, its build/ folder, or a parent), the
// flags after '--', or, with none of these, LibTorch's own include paths.
#pragma once

#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

struct TorchInstall {
  std::string ConfigFile;                // TorchConfig.cmake, or empty with --torch-prefix
  std::string Prefix;                    // holds include/torch/csrc/api/include
  std::vector<std::string> IncludeDirs;  // as -isystem
};

// From --torch-prefix when given, else TorchConfig.cmake on $Torch_DIR,
// $CMAKE_PREFIX_PATH, or the usual system places. Error says what was tried.
std::optional<TorchInstall> findTorch(const std::string &PrefixOption, std::string &Error);

// A compile_commands.json in Dir, Dir/build, or a parent of Dir; empty if none.
std::string findCompileCommands(llvm::StringRef Dir);

std::string makeAbsolute(llvm::StringRef Path);

// The directories a command searches for includes (-I, -iquote, -isystem,
// joined to the flag or not), absolute.
std::vector<std::string> includeSearchDirs(const clang::tooling::CompileCommand &C);

// How LibTorch's own headers are named in an #include (torch/, ATen/, c10/,
// caffe2/), whichever include directory finds them.
bool isTorchHeader(llvm::StringRef IncludeName);
// Flags that make those headers, and OpenCV's (opencv2/), system headers
// also when a hand-written command finds them through -I: the analysis
// never reports inside them and skips their function bodies, and the
// shared PCH stays usable.
std::vector<std::string> librarySystemHeaderFlags();

// The compile commands of a run: the flags after "--" (Fixed), -p's
// database (BuildPath), else for each source the compile_commands.json
// nearest to it (two projects in one run get their own flags), or
// LibTorch's include paths (TorchPrefix, else TorchConfig.cmake);
// Described says which. Null with Error set when none can be had.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadDatabase(const std::vector<std::string> &Sources,
             std::unique_ptr<clang::tooling::FixedCompilationDatabase> Fixed, const std::string &BuildPath,
             const std::string &TorchPrefix, std::string &Described, std::string &Error);

} // namespace torchtidy
