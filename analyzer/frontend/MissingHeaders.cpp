#include "frontend/MissingHeaders.h"

#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cctype>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace torchtidy {

bool standInForGeneratedHeader(Preprocessor &PP, llvm::StringRef Included, SourceLocation Loc) {
  llvm::StringRef Name = llvm::sys::path::filename(Included);
  if (!Name.consume_back("_export.h") || Name.empty())
    return false;
  // The base name as CMake makes it a C identifier, upper-cased.
  std::string Base;
  for (char C : Name)
    Base += std::isalnum(static_cast<unsigned char>(C)) ? std::toupper(C) : '_';
  for (const char *Suffix : {"_EXPORT", "_NO_EXPORT", "_DEPRECATED", "_DEPRECATED_EXPORT",
                             "_DEPRECATED_NO_EXPORT"}) {
    IdentifierInfo *II = PP.getIdentifierInfo(Base + Suffix);
    if (PP.isMacroDefined(II))
      continue;
    MacroInfo *MI = PP.AllocateMacroInfo(Loc);
    MI->setIsUsed(true);
    PP.appendDefMacroDirective(II, MI);
  }
  return true;
}

// Base/Included's file, each name of the path matched ignoring case where
// it does not match as written.
static std::optional<std::string> findIgnoringCase(llvm::StringRef Base, llvm::StringRef Included) {
  llvm::SmallString<256> Path(Base);
  for (auto It = llvm::sys::path::begin(Included), End = llvm::sys::path::end(Included); It != End; ++It) {
    llvm::SmallString<256> Next(Path);
    llvm::sys::path::append(Next, *It);
    if (*It == "." || *It == ".." || llvm::sys::fs::exists(Next)) {
      Path = Next;
      continue;
    }
    std::optional<std::string> Match;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator D(Path, EC), DEnd; D != DEnd && !EC; D.increment(EC)) {
      llvm::StringRef Name = llvm::sys::path::filename(D->path());
      if (!Name.equals_insensitive(*It))
        continue;
      if (Match)
        return std::nullopt;  // two names differ only in case: which one is meant is unknown
      Match = D->path();
    }
    if (!Match)
      return std::nullopt;
    Path = *Match;
  }
  if (!llvm::sys::fs::is_regular_file(Path))
    return std::nullopt;
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

std::optional<std::pair<std::string, std::string>>
caseInsensitiveMatch(Preprocessor &PP, llvm::StringRef Included, SourceLocation Loc) {
  FileManager &FM = PP.getFileManager();
  std::vector<llvm::SmallString<256>> Bases;
  const SourceManager &SM = PP.getSourceManager();
  if (OptionalFileEntryRef Includer = SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc))))
    Bases.emplace_back(Includer->getDir().getName());
  for (const DirectoryLookup &Lookup : PP.getHeaderSearchInfo().search_dir_range())
    if (OptionalDirectoryEntryRef D = Lookup.getDirRef(); D && Lookup.getDirCharacteristic() == SrcMgr::C_User)
      Bases.emplace_back(D->getName());
  for (llvm::SmallString<256> &Base : Bases) {
    FM.makeAbsolutePath(Base);  // relative to the compile command's directory
    if (std::optional<std::string> Found = findIgnoringCase(Base, Included)) {
      llvm::SmallString<256> Asked(Base);
      llvm::sys::path::append(Asked, Included);
      llvm::sys::path::remove_dots(Asked, /*remove_dot_dot=*/true);
      return std::make_pair(Asked.str().str(), *Found);
    }
  }
  return std::nullopt;
}

bool madeByCodeGenerator(llvm::StringRef Included) {
  llvm::StringRef Name = llvm::sys::path::filename(Included);
  return Name.ends_with(".pb.h") || Name.ends_with("_generated.h") || Name.ends_with(".moc") ||
         (Name.starts_with("ui_") && Name.ends_with(".h")) || Name.starts_with("moc_") ||
         Name.starts_with("qrc_");
}

// The file names under Dir, a few levels down (hidden folders left out);
// null when there are too many to list. Kept for the process: the workers
// of one run ask for the same folders.
static const std::set<std::string> *namesUnder(const std::string &Dir) {
  static std::mutex Lock;
  static std::map<std::string, std::optional<std::set<std::string>>> Known;
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, New] = Known.try_emplace(Dir);
  if (New) {
    std::set<std::string> Names;
    std::error_code EC;
    size_t Seen = 0;
    for (llvm::sys::fs::recursive_directory_iterator I(Dir, EC), End; I != End && !EC; I.increment(EC)) {
      llvm::StringRef Name = llvm::sys::path::filename(I->path());
      if (++Seen > 20000)
        return nullptr;
      if (Name.starts_with(".") || I.level() >= 6)
        I.no_push();
      Names.insert(Name.str());
    }
    It->second = std::move(Names);
  }
  return It->second ? &*It->second : nullptr;
}

static bool hasEntry(llvm::StringRef Dir, llvm::StringRef Name) {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Name);
  return llvm::sys::fs::exists(Path);
}

// A header named without a folder ("TROOT.h") is the project's when a file
// of that name, or its template ("config.h.in"), is in the project: under
// the including file's folder, under a folder up to three above it that
// holds a build file or a repository (not past the repository's root), or
// under a user include directory. When a folder has too many files to
// list, it may be.
static bool mayBeInProject(Preprocessor &PP, llvm::StringRef Included, SourceLocation Loc) {
  std::vector<std::string> Bases;
  const SourceManager &SM = PP.getSourceManager();
  if (OptionalFileEntryRef Includer = SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc)))) {
    llvm::SmallString<256> Dir(Includer->getDir().getName());
    PP.getFileManager().makeAbsolutePath(Dir);
    Bases.push_back(Dir.str().str());
    for (int Up = 0; Up < 3 && !hasEntry(Dir, ".git"); ++Up) {
      Dir = llvm::sys::path::parent_path(Dir);
      if (Dir.empty())
        break;
      static const char *const Markers[] = {".git", "CMakeLists.txt", "Makefile", "meson.build"};
      if (llvm::any_of(Markers, [&](const char *Marker) { return hasEntry(Dir, Marker); }))
        Bases.push_back(Dir.str().str());
    }
  }
  for (const DirectoryLookup &Lookup : PP.getHeaderSearchInfo().search_dir_range())
    if (OptionalDirectoryEntryRef D = Lookup.getDirRef(); D && Lookup.getDirCharacteristic() == SrcMgr::C_User)
      Bases.push_back(D->getName().str());
  std::string Name = Included.str();
  return llvm::any_of(Bases, [&](const std::string &Base) {
    const std::set<std::string> *Names = namesUnder(Base);
    return !Names || Names->count(Name) || Names->count(Name + ".in") || Names->count(Name + ".cmake");
  });
}

bool inLibraryDirectory(Preprocessor &PP, llvm::StringRef Included, SourceLocation Loc) {
  auto [Dir, Rest] = Included.split('/');
  if (Rest.empty())
    return !mayBeInProject(PP, Included, Loc);
  if (Dir.empty() || Dir == "." || Dir == "..")
    return false;
  FileManager &FM = PP.getFileManager();
  auto HasDir = [&](llvm::StringRef Parent) {
    llvm::SmallString<256> Path(Parent);
    llvm::sys::path::append(Path, Dir);
    return FM.getOptionalDirectoryRef(Path).has_value();
  };
  const SourceManager &SM = PP.getSourceManager();
  if (OptionalFileEntryRef Includer = SM.getFileEntryRefForID(SM.getFileID(SM.getExpansionLoc(Loc))))
    if (HasDir(Includer->getDir().getName()))
      return false;
  for (const DirectoryLookup &Lookup : PP.getHeaderSearchInfo().search_dir_range())
    if (OptionalDirectoryEntryRef D = Lookup.getDirRef();
        D && Lookup.getDirCharacteristic() == SrcMgr::C_User && HasDir(D->getName()))
      return false;
  return true;
}

} // namespace torchtidy
