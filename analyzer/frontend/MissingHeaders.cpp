#include "frontend/MissingHeaders.h"

#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cctype>
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

bool inLibraryDirectory(Preprocessor &PP, llvm::StringRef Included, SourceLocation Loc) {
  auto [Dir, Rest] = Included.split('/');
  if (Rest.empty() || Dir.empty() || Dir == "." || Dir == "..")
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
