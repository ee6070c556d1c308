#include "analyses/CudaText.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace torchtidy {
namespace {

bool identifierMayNameGpu(llvm::StringRef Name) {
  static const llvm::StringSet<> Exact = {"is_available", "kHIP", "kMPS", "kXLA", "kXPU",
                                          "kVulkan", "kMTIA", "kPrivateUse1"};
  return Exact.contains(Name) || Name.contains_insensitive("cuda") ||
         Name.contains_insensitive("device") || Name.contains_insensitive("gpu") ||
         Name.contains_insensitive("nccl");
}

bool literalMayNameGpu(llvm::StringRef Text) {
  return llvm::any_of(std::initializer_list<llvm::StringRef>{"cuda", "gpu", "mps", "hip", "xpu"},
                      [&](llvm::StringRef W) { return Text.contains_insensitive(W); });
}

bool fileMayNameGpu(const SourceManager &SM, FileID FID, const LangOptions &LO) {
  std::optional<llvm::MemoryBufferRef> Buf = SM.getBufferOrNone(FID);
  if (!Buf)
    return true; // unreadable: nothing can be proved
  Lexer L(SM.getLocForStartOfFile(FID), LO, Buf->getBufferStart(), Buf->getBufferStart(),
          Buf->getBufferEnd());
  Token T;
  do {
    L.LexFromRawLexer(T);
    if (T.is(tok::raw_identifier) && identifierMayNameGpu(T.getRawIdentifier()))
      return true;
    if (tok::isStringLiteral(T.getKind()) &&
        literalMayNameGpu(llvm::StringRef(T.getLiteralData(), T.getLength())))
      return true;
  } while (T.isNot(tok::eof));
  return false;
}

} // namespace

bool userTextMayNameGpu(const SourceManager &SM, const LangOptions &LO) {
  llvm::DenseSet<const FileEntry *> Seen;
  auto MayName = [&](const SrcMgr::SLocEntry &E) {
    if (!E.isFile() || SrcMgr::isSystem(E.getFile().getFileCharacteristic()))
      return false;
    OptionalFileEntryRef File = E.getFile().getContentCache().OrigEntry;
    if (!File || !Seen.insert(&File->getFileEntry()).second)
      return false;
    // A file entry's offset is its start location's raw encoding.
    FileID FID = SM.getFileID(SourceLocation::getFromRawEncoding(E.getOffset()));
    return fileMayNameGpu(SM, FID, LO);
  };
  for (unsigned I = 0; I < SM.local_sloc_entry_size(); ++I)
    if (MayName(SM.getLocalSLocEntry(I)))
      return true;
  // Project headers held by a preamble.
  for (unsigned I = 0; I < SM.loaded_sloc_entry_size(); ++I) {
    bool Invalid = false;
    const SrcMgr::SLocEntry &E = SM.getLoadedSLocEntry(I, &Invalid);
    if (Invalid || MayName(E))
      return true;
  }
  return false;
}

} // namespace torchtidy
