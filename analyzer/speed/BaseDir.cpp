#include "speed/BaseDir.h"

#include "llvm/Support/Path.h"

namespace torchtidy {

BaseDir::BaseDir(llvm::StringRef D) : Dir(D.str()) {
  while (Dir.size() > 1 && Dir.back() == '/')
    Dir.pop_back();
  Prefix = Dir == "/" ? Dir : Dir + "/";
}

std::string BaseDir::relative(llvm::StringRef Path) const {
  if (Path.starts_with(Prefix) && Path.size() > Prefix.size())
    return Path.drop_front(Prefix.size()).str();
  return Path.str();
}

std::string BaseDir::absolute(llvm::StringRef Path) const {
  if (Path.empty() || llvm::sys::path::is_absolute(Path))
    return Path.str();
  return Prefix + Path.str();
}

std::string BaseDir::forKey(llvm::StringRef Arg) const {
  std::string Out;
  size_t At;
  // Only where a path component ends: "/base" is not in "/base2".
  while ((At = Arg.find(Dir)) != llvm::StringRef::npos) {
    size_t End = At + Dir.size();
    bool Whole = End == Arg.size() || Arg[End] == '/' || Dir == "/";
    Out += Arg.take_front(At).str() + (Whole ? std::string("\x01" "base") : Dir);
    Arg = Arg.drop_front(End);
  }
  return Out + Arg.str();
}

// The components Path and Into share, into Into.
static void keepCommonDir(llvm::SmallString<256> &Into, llvm::StringRef Path) {
  auto A = llvm::sys::path::begin(Into), AEnd = llvm::sys::path::end(Into);
  auto B = llvm::sys::path::begin(Path), BEnd = llvm::sys::path::end(Path);
  llvm::SmallString<256> Common;
  for (; A != AEnd && B != BEnd && *A == *B; ++A, ++B)
    llvm::sys::path::append(Common, *A);
  Into = Common.empty() ? llvm::SmallString<256>("/") : Common;
}

std::string projectRoot(const clang::tooling::CompilationDatabase &DB,
                        llvm::ArrayRef<std::string> Sources) {
  std::vector<clang::tooling::CompileCommand> Commands = DB.getAllCompileCommands();
  if (Commands.empty())
    for (const std::string &S : Sources)
      for (clang::tooling::CompileCommand &C : DB.getCompileCommands(S))
        Commands.push_back(std::move(C));
  std::optional<llvm::SmallString<256>> Root;
  auto Add = [&](llvm::StringRef Dir) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    if (!Root)
      Root = P;
    else
      keepCommonDir(*Root, P);
  };
  for (const clang::tooling::CompileCommand &C : Commands) {
    Add(C.Directory);
    llvm::SmallString<256> File(C.Filename);
    if (!llvm::sys::path::is_absolute(File))
      File = C.Directory + "/" + C.Filename;
    Add(llvm::sys::path::parent_path(File));
  }
  return Root ? Root->str().str() : "/";
}

static void relocate(Position &P, PathMap Map) { P.File = Map(P.File); }

void relocate(FunctionTable &T, PathMap Map) {
  for (auto &[Usr, Effects] : T)
    for (ReachedEffect &E : Effects) {
      E.Op.Elsewhere.File = Map(E.Op.Elsewhere.File);
      for (ChainLink &L : E.Chain)
        L.Elsewhere.File = Map(L.Elsewhere.File);
    }
}

void relocate(TUResult &R, PathMap Map) {
  R.File = Map(R.File);
  for (Finding &F : R.Findings) {
    relocate(F.Pos, Map);
    for (FindingNote &N : F.Notes)
      relocate(N.Pos, Map);
    for (FindingFix &X : F.Fixes)
      relocate(X.Pos, Map);
  }
  relocate(R.Summary.Functions, Map);
}

} // namespace torchtidy
