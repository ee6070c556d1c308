#include "lsp/Lsp.h"

#include "frontend/Isolation.h"
#include "lsp/Server.h"

#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <unistd.h>

namespace torchtidy::lsp {

int lspCommand(int Argc, const char **Argv, const char *) {
  if (Argc > 1) {
    bool Help = !std::strcmp(Argv[1], "--help") || !std::strcmp(Argv[1], "-h");
    (Help ? llvm::outs() : llvm::errs())
        << (Help ? "" : "torchtidy lsp: error: unexpected argument '" + std::string(Argv[1]) + "'\n")
        << "usage: torchtidy lsp\n  The language server, over stdin and stdout; its settings come "
           "from the client's initializationOptions (docs/editors.md).\n";
    return Help ? 0 : 2;
  }
  enableCrashRecovery();
  // The protocol gets its own copy of stdout; anything else written there
  // (by clang, say) goes to stderr instead of corrupting a message.
  int Protocol = dup(STDOUT_FILENO);
  std::FILE *Out = Protocol < 0 ? nullptr : fdopen(Protocol, "w");
  if (!Out || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    llvm::errs() << "torchtidy lsp: error: cannot set up stdout: " << std::strerror(errno) << "\n";
    return 2;
  }
  Transport T(stdin, Out);
  Server S(T);
  int Status = S.run();
  // An analysis thread given up after its timeout may still run: no teardown.
  exitWithoutTeardown(Status);
}

} // namespace torchtidy::lsp
