#include "driver/Progress.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace torchtidy {

Progress::Progress(size_t Total, bool Enabled)
    : Total(Total), Active(Enabled && Total > 1 && llvm::sys::Process::StandardErrIsDisplayed()) {}

void Progress::done(llvm::StringRef File) {
  ++Done;
  if (!Active)
    return;
  // "\r" returns to the line's start, "\033[K" erases what a longer name left.
  llvm::errs() << "\r[" << Done << "/" << Total << "] " << llvm::sys::path::filename(File)
               << "\033[K";
  llvm::errs().flush();
  Shown = true;
}

void Progress::clear() {
  if (!Shown)
    return;
  llvm::errs() << "\r\033[K";
  llvm::errs().flush();
  Shown = false;
}

} // namespace torchtidy
