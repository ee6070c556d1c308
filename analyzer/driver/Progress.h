// "[12/40] file.cpp" on stderr while a multi-file run goes on, rewritten in
// place and cleared at the end; only when stderr is a terminal.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstddef>

namespace torchtidy {

class Progress {
public:
  // Shows nothing unless Enabled, stderr is a terminal and Total > 1.
  Progress(size_t Total, bool Enabled);
  ~Progress() { clear(); }
  void done(llvm::StringRef File); // one more file finished
  void clear();                    // before other output goes to stderr

private:
  size_t Total, Done = 0;
  bool Shown = false, Active;
};

} // namespace torchtidy
