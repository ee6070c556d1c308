#include "support/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace torchtidy {

bool writeFileAtomically(llvm::StringRef Path, llvm::StringRef Content, std::string &Error) {
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%%%";
  int FD = -1;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp)) {
    Error = Path.str() + ": cannot create a temporary file beside it: " + EC.message();
    return false;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Content;
    OS.flush();
    if (OS.has_error()) {
      Error = Path.str() + ": write failed: " + OS.error().message();
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      return false;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    Error = Path.str() + ": cannot replace the file: " + EC.message();
    llvm::sys::fs::remove(Temp);
    return false;
  }
  return true;
}

} // namespace torchtidy
