#include "frontend/CompileDb.h"

#include "analyses/LibraryHeaders.h"

#include "clang/Tooling/JSONCompilationDatabase.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <map>

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

std::vector<std::string> includeSearchDirs(const clang::tooling::CompileCommand &C) {
  std::vector<std::string> Dirs;
  const std::vector<std::string> &Args = C.CommandLine;
  for (size_t I = 0; I < Args.size(); ++I)
    for (llvm::StringRef Flag : {"-I", "-iquote", "-isystem"}) {
      llvm::StringRef A = Args[I];
      if (!A.starts_with(Flag))
        continue;
      llvm::StringRef Dir = A == Flag ? (I + 1 < Args.size() ? llvm::StringRef(Args[++I]) : "")
                                      : A.drop_front(Flag.size());
      if (Dir.empty())
        break;
      llvm::SmallString<256> Path(Dir);
      llvm::sys::fs::make_absolute(C.Directory, Path);
      Dirs.push_back(std::string(Path));
      break;
    }
  return Dirs;
}

bool isTorchHeader(llvm::StringRef IncludeName) {
  return llvm::any_of(torchHeaderPrefixes(), [&](llvm::StringRef P) { return IncludeName.starts_with(P); });
}

std::vector<std::string> librarySystemHeaderFlags() {
  std::vector<std::string> Flags;
  for (llvm::StringRef P : libraryHeaderPrefixes())
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

namespace {

using clang::tooling::CompilationDatabase;
using clang::tooling::CompileCommand;

// Each file's commands from the compile_commands.json nearest to it, so
// that the files of two projects given in one run get their own flags;
// Fallback (LibTorch's include paths) for a file with none near it.
class NearestDatabases : public CompilationDatabase {
public:
  // ByJson: the databases found near the sources, loaded, by their path.
  NearestDatabases(std::map<std::string, std::unique_ptr<CompilationDatabase>> ByJson,
                   std::map<std::string, std::string> JsonOfDir,
                   std::unique_ptr<CompilationDatabase> Fallback)
      : ByJson(std::move(ByJson)), JsonOfDir(std::move(JsonOfDir)), Fallback(std::move(Fallback)) {}

  std::vector<CompileCommand> getCompileCommands(llvm::StringRef File) const override {
    std::string Dir = path::parent_path(makeAbsolute(File)).str();
    auto It = JsonOfDir.find(Dir);
    // A file not given on the command line (a header) looks its own up.
    std::string Json = It != JsonOfDir.end() ? It->second : findCompileCommands(Dir);
    auto DB = ByJson.find(Json);
    if (DB != ByJson.end())
      return DB->second->getCompileCommands(File);
    return Fallback ? Fallback->getCompileCommands(File) : std::vector<CompileCommand>();
  }
  std::vector<std::string> getAllFiles() const override {
    std::vector<std::string> All;
    for (const auto &[Json, DB] : ByJson)
      llvm::append_range(All, DB->getAllFiles());
    return All;
  }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    std::vector<CompileCommand> All;
    for (const auto &[Json, DB] : ByJson)
      llvm::append_range(All, DB->getAllCompileCommands());
    return All;
  }

private:
  std::map<std::string, std::unique_ptr<CompilationDatabase>> ByJson;
  std::map<std::string, std::string> JsonOfDir; // of the sources' directories
  std::unique_ptr<CompilationDatabase> Fallback;
};

std::unique_ptr<CompilationDatabase> loadJson(const std::string &Json, std::string &Error) {
  using namespace clang::tooling;
  std::string LoadError;
  auto DB = JSONCompilationDatabase::loadFromFile(Json, LoadError, JSONCommandLineSyntax::AutoDetect);
  if (!DB) {
    Error = Json + ": " + LoadError;
    return nullptr;
  }
  // Headers and new files get the command of their nearest neighbour.
  return inferMissingCompileCommands(std::move(DB));
}

// LibTorch's include paths, for files without a database.
std::unique_ptr<CompilationDatabase> torchDatabase(const std::string &TorchPrefix, std::string &Described,
                                                   std::string &Error) {
  std::optional<TorchInstall> Torch = findTorch(TorchPrefix, Error);
  if (!Torch)
    return nullptr;
  std::vector<std::string> Flags = {"-std=c++17"};
  for (const std::string &Dir : Torch->IncludeDirs)
    Flags.insert(Flags.end(), {"-isystem", Dir});
  Described = "no compile database; LibTorch " +
              (Torch->ConfigFile.empty() ? "at " + Torch->Prefix
                                         : "from " + Torch->ConfigFile) +
              ": " + llvm::join(Flags, " ");
  return std::make_unique<clang::tooling::FixedCompilationDatabase>(".", Flags);
}

} // namespace

std::unique_ptr<clang::tooling::CompilationDatabase>
loadDatabase(const std::vector<std::string> &Sources,
             std::unique_ptr<clang::tooling::FixedCompilationDatabase> Fixed, const std::string &BuildPath,
             const std::string &TorchPrefix, std::string &Described, std::string &Error) {
  if (Fixed) {
    Described = "compiler flags after '--'";
    return Fixed;
  }
  if (!BuildPath.empty()) {
    llvm::SmallString<256> P(BuildPath);
    if (fs::is_directory(P) || path::filename(P) != "compile_commands.json")
      path::append(P, "compile_commands.json");
    std::string Json = P.str().str();
    if (!fs::exists(Json)) {
      Error = "-p " + BuildPath + ": no compile_commands.json there (configure with "
              "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)";
      return nullptr;
    }
    Described = Json;
    return loadJson(Json, Error);
  }
  // Without -p, each source's own nearest database.
  std::map<std::string, std::unique_ptr<CompilationDatabase>> ByJson;
  std::map<std::string, std::string> JsonOfDir;
  std::vector<std::string> Dirs;
  for (const std::string &S : Sources)
    Dirs.push_back(path::parent_path(makeAbsolute(S)).str());
  if (Sources.empty())
    Dirs.push_back(makeAbsolute("."));
  bool SomeWithout = false;
  for (const std::string &Dir : Dirs) {
    auto [It, New] = JsonOfDir.try_emplace(Dir, findCompileCommands(Dir));
    const std::string &Json = It->second;
    SomeWithout |= Json.empty();
    if (!New || Json.empty() || ByJson.count(Json))
      continue;
    if (!(ByJson[Json] = loadJson(Json, Error)))
      return nullptr;
  }
  std::vector<std::string> Names;
  for (const auto &[Json, DB] : ByJson)
    Names.push_back(Json);
  std::unique_ptr<CompilationDatabase> Fallback;
  std::string FallbackDescribed;
  if (SomeWithout && !(Fallback = torchDatabase(TorchPrefix, FallbackDescribed, Error)))
    return nullptr;
  if (ByJson.empty()) {
    Described = FallbackDescribed;
    return Fallback;
  }
  Described = llvm::join(Names, ", ");
  if (Fallback)
    Described += "; for the files without one, " + FallbackDescribed;
  return std::make_unique<NearestDatabases>(std::move(ByJson), std::move(JsonOfDir), std::move(Fallback));
}

} // namespace torchtidy
