#include "frontend/IncludedFiles.h"

#include "clang/Basic/FileManager.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace torchtidy {
namespace {

// Notes each #include that finds no file with the directories searched:
// the includer's for "x.h", then the search path from where its kind of
// include starts (header maps and frameworks aside).
class NotFound : public clang::PPCallbacks {
public:
  NotFound(clang::Preprocessor &PP, std::vector<MissingHeader> &Missing) : PP(PP), Missing(Missing) {}
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &, llvm::StringRef FileName,
                          bool IsAngled, clang::CharSourceRange, clang::OptionalFileEntryRef File,
                          llvm::StringRef, llvm::StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    if (File)
      return;
    MissingHeader M{FileName.str(), {}};
    clang::SourceManager &SM = PP.getSourceManager();
    const clang::HeaderSearch &HS = PP.getHeaderSearchInfo();
    auto Add = [&](llvm::StringRef Dir) {
      llvm::SmallString<256> P(Dir);
      PP.getFileManager().makeAbsolutePath(P);
      llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
      M.Dirs.push_back(P.str().str());
    };
    if (!IsAngled)
      if (clang::OptionalFileEntryRef Includer = SM.getFileEntryRefForID(SM.getFileID(HashLoc)))
        Add(Includer->getDir().getName());
    auto Begin = IsAngled ? HS.angled_dir_begin() : HS.search_dir_begin();
    for (auto It = Begin; It != HS.search_dir_end(); ++It)
      if (It->isNormalDir())
        Add(It->getName());
    Missing.push_back(std::move(M));
  }

private:
  clang::Preprocessor &PP;
  std::vector<MissingHeader> &Missing;
};

} // namespace

bool nowFound(const MissingHeader &M) {
  return llvm::any_of(M.Dirs, [&](const std::string &Dir) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, M.Name);
    return llvm::sys::fs::exists(P);
  });
}

bool IncludedFiles::sawDependency(llvm::StringRef Filename, bool, bool IsSystem, bool IsModuleFile,
                                  bool IsMissing) {
  // A loaded PCH is not a dependency of its own: its inputs are (the
  // ASTReader reports them), and its flags are in the compile command.
  // "<built-in>" and "<command line>" are not files.
  if (IsModuleFile || IsMissing || Filename.starts_with("<"))
    return false;
  // A relative name is relative to the compile command's directory; the
  // cache checks it later from wherever torchtidy runs.
  llvm::SmallString<256> Path(Filename);
  if (Files)
    Files->makeAbsolutePath(Path);
  // ".." after a symbolic link is not the lexical parent: GCC's headers are
  // found as /../lib/gcc/<triple>/12/../../../../include/c++/12/... where
  // /lib links to usr/lib. Such a name is kept as opened (a file that cannot
  // be found again would keep the result from being cached).
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
  llvm::SmallString<256> Lexical(Path);
  llvm::sys::path::remove_dots(Lexical, /*remove_dot_dot=*/true);
  if (Lexical == Path || llvm::sys::fs::exists(Lexical))
    Path = Lexical;
  if (!IsSystem)
    UserFiles.push_back(Path.str().str());
  addDependency(Path);
  return false; // added above, by its absolute name
}

void IncludedFiles::attachToPreprocessor(clang::Preprocessor &PP) {
  Files = &PP.getFileManager();
  PP.addPPCallbacks(std::make_unique<NotFound>(PP, Missing));
  DependencyCollector::attachToPreprocessor(PP);
}

void IncludedFiles::pchInputsAre(llvm::ArrayRef<std::string> Inputs,
                                 llvm::ArrayRef<std::string> UserInputs) {
  PchInputsKnown = true;
  for (const std::string &F : Inputs)
    addDependency(F);
  UserFiles.insert(UserFiles.end(), UserInputs.begin(), UserInputs.end());
}

void IncludedFiles::attachToASTReader(clang::ASTReader &R) {
  if (!PchInputsKnown)
    DependencyCollector::attachToASTReader(R);
}

std::string fileStamp(llvm::StringRef Path) {
  llvm::sys::fs::file_status St;
  if (llvm::sys::fs::status(Path, St))
    return "";
  return std::to_string(St.getSize()) + ":" +
         std::to_string(St.getLastModificationTime().time_since_epoch().count());
}

std::string FileStamps::of(llvm::StringRef Path) {
  {
    std::lock_guard<std::mutex> G(Lock);
    auto It = Memo.find(Path);
    if (It != Memo.end())
      return It->second;
  }
  std::string S = fileStamp(Path);
  std::lock_guard<std::mutex> G(Lock);
  Memo[Path] = S;
  return S;
}

} // namespace torchtidy
