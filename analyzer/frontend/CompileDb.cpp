#include "frontend/CompileDb.h"

#include "clang/Tooling/JSONCompilationDatabase.h"

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

std::unique_ptr<clang::tooling::CompilationDatabase>
loadDatabase(const std::vector<std::string> &Sources,
             std::unique_ptr<clang::tooling::FixedCompilationDatabase> Fixed, const std::string &BuildPath,
             const std::string &TorchPrefix, std::string &Described, std::string &Error) {
  using namespace clang::tooling;
  if (Fixed) {
    Described = "compiler flags after '--'";
    return Fixed;
  }
  std::string Json;
  if (!BuildPath.empty()) {
    llvm::SmallString<256> P(BuildPath);
    if (!llvm::sys::fs::is_directory(P) && llvm::sys::path::filename(P) == "compile_commands.json")
      Json = P.str().str();
    else {
      llvm::sys::path::append(P, "compile_commands.json");
      Json = P.str().str();
    }
    if (!llvm::sys::fs::exists(Json)) {
      Error = "-p " + BuildPath + ": no compile_commands.json there (configure with "
              "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)";
      return nullptr;
    }
  } else if (!Sources.empty()) {
    Json = findCompileCommands(llvm::sys::path::parent_path(makeAbsolute(Sources.front())));
  } else {
    Json = findCompileCommands(".");
  }
  if (!Json.empty()) {
    std::string LoadError;
    auto DB = JSONCompilationDatabase::loadFromFile(Json, LoadError, JSONCommandLineSyntax::AutoDetect);
    if (!DB) {
      Error = Json + ": " + LoadError;
      return nullptr;
    }
    Described = Json;
    // Headers and new files get the command of their nearest neighbour.
    return inferMissingCompileCommands(std::move(DB));
  }
  std::string TorchError;
  std::optional<TorchInstall> Torch = findTorch(TorchPrefix, TorchError);
  if (!Torch) {
    Error = TorchError;
    return nullptr;
  }
  std::vector<std::string> Flags = {"-std=c++17"};
  for (const std::string &Dir : Torch->IncludeDirs)
    Flags.insert(Flags.end(), {"-isystem", Dir});
  Described = "no compile database; LibTorch " +
              (Torch->ConfigFile.empty() ? "at " + Torch->Prefix
                                         : "from " + Torch->ConfigFile) +
              ": " + llvm::join(Flags, " ");
  return std::make_unique<FixedCompilationDatabase>(".", Flags);
}

} // namespace torchtidy
