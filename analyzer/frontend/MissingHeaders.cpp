#include "frontend/MissingHeaders.h"

#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/MacroInfo.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cctype>
#include <string>

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

bool inAbsentLibraryDirectory(Preprocessor &PP, llvm::StringRef Included, SourceLocation Loc) {
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
    if (OptionalDirectoryEntryRef D = Lookup.getDirRef(); D && HasDir(D->getName()))
      return false;
  return true;
}

} // namespace torchtidy
