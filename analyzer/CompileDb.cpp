#include "CompileDb.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

namespace torchtidy {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::string makeAbsolute(llvm::StringRef Path) {
  llvm::SmallString<256> P(Path);
  fs::make_absolute(P);
  path::remove_dots(P, /*remove_dot_dot=*/true);
  return P.str().str();
}

static bool isTorchPrefix(llvm::StringRef Dir) {
  llvm::SmallString<256> P(Dir);
  path::append(P, "include/torch/csrc/api/include/torch");
  return fs::is_directory(P);
}

static TorchInstall installAt(llvm::StringRef Prefix, llvm::StringRef Config) {
  TorchInstall T;
  T.ConfigFile = Config.str();
  T.Prefix = Prefix.str();
  llvm::SmallString<256> Api(Prefix), Inc(Prefix);
  path::append(Api, "include/torch/csrc/api/include");
  path::append(Inc, "include");
  T.IncludeDirs.push_back(Api.str().str());
  // /usr/include is searched anyway; naming it again would reorder the
  // standard library's #include_next chain.
  if (Inc != "/usr/include")
    T.IncludeDirs.push_back(Inc.str().str());
  return T;
}

std::optional<TorchInstall> findTorch(const std::string &PrefixOption, std::string &Error) {
  if (!PrefixOption.empty()) {
    std::string Prefix = makeAbsolute(PrefixOption);
    if (isTorchPrefix(Prefix))
      return installAt(Prefix, "");
    Error = "--torch-prefix=" + PrefixOption +
            ": no LibTorch there (expected include/torch/csrc/api/include)";
    return std::nullopt;
  }
  std::vector<std::string> ConfigDirs;
  if (auto Dir = llvm::sys::Process::GetEnv("Torch_DIR"))
    ConfigDirs.push_back(*Dir);
  if (auto Paths = llvm::sys::Process::GetEnv("CMAKE_PREFIX_PATH")) {
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    llvm::StringRef(*Paths).split(Parts, ':', -1, false);
    for (llvm::StringRef P : Parts) {
      ConfigDirs.push_back((P + "/share/cmake/Torch").str());
      ConfigDirs.push_back((P + "/lib/cmake/Torch").str());
    }
  }
  for (const char *D : {"/usr/lib/x86_64-linux-gnu/cmake/Torch", "/usr/lib/aarch64-linux-gnu/cmake/Torch",
                        "/usr/local/lib/cmake/Torch", "/usr/local/share/cmake/Torch",
                        "/usr/lib/cmake/Torch", "/usr/share/cmake/Torch"})
    ConfigDirs.push_back(D);
  for (const std::string &Dir : ConfigDirs) {
    llvm::SmallString<256> Config(Dir);
    path::append(Config, "TorchConfig.cmake");
    if (!fs::exists(Config))
      continue;
    // TorchConfig.cmake sits a few levels under the install prefix.
    llvm::SmallString<256> Prefix(makeAbsolute(Dir));
    for (int Up = 0; Up < 5 && !Prefix.empty(); ++Up) {
      path::remove_filename(Prefix);
      if (isTorchPrefix(Prefix))
        return installAt(Prefix, Config);
    }
  }
  Error = "no LibTorch found: looked for TorchConfig.cmake in " + llvm::join(ConfigDirs, ", ") +
          "; give --torch-prefix=<libtorch dir>, -p <build dir>, or flags after '--'";
  return std::nullopt;
}

static constexpr llvm::StringLiteral TorchHeaderPrefixes[] = {"torch/", "ATen/", "c10/", "caffe2/"};

bool isTorchHeader(llvm::StringRef IncludeName) {
  return llvm::any_of(TorchHeaderPrefixes, [&](llvm::StringRef P) { return IncludeName.starts_with(P); });
}

std::vector<std::string> torchSystemHeaderFlags() {
  std::vector<std::string> Flags;
  for (llvm::StringRef P : TorchHeaderPrefixes)
    Flags.push_back(("--system-header-prefix=" + P).str());
  return Flags;
}

std::string findCompileCommands(llvm::StringRef Dir) {
  llvm::SmallString<256> Cur(makeAbsolute(Dir));
  while (!Cur.empty()) {
    for (const char *Sub : {"", "build"}) {
      llvm::SmallString<256> Candidate(Cur);
      path::append(Candidate, Sub, "compile_commands.json");
      if (fs::exists(Candidate))
        return Candidate.str().str();
    }
    llvm::StringRef Parent = path::parent_path(Cur);
    if (Parent == Cur)
      break;
    Cur = Parent;
  }
  return "";
}

} // namespace torchtidy
