#include "cli/Subcommands.h"
#include "confirm/Confirm.h"
#include "formats/SarifMerge.h"
#include "lsp/Lsp.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <unistd.h>
#include <vector>

namespace torchtidy {

// Runs a program installed beside torchtidy (built against the user's
// LibTorch, with no LLVM in it) in place of this process.
static int execSibling(const char *Program, int Argc, const char **Argv, const char *Self) {
  std::string Exe = llvm::sys::fs::getMainExecutable(Self, (void *)&execSibling);
  llvm::SmallString<256> Path(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Path, Program);
  std::vector<char *> Args;
  Args.push_back(const_cast<char *>(Path.c_str()));
  for (int I = 1; I < Argc; ++I)
    Args.push_back(const_cast<char *>(Argv[I]));
  Args.push_back(nullptr);
  execv(Path.c_str(), Args.data());
  llvm::errs() << "torchtidy: error: cannot run " << Path << ": " << std::strerror(errno)
               << " (it is built with the runtime part of torchtidy)\n";
  return 2;
}

static int doctor(int Argc, const char **Argv, const char *Self) {
  return execSibling("torchtidy-doctor", Argc, Argv, Self);
}

static const Subcommand Subcommands[] = {
    {"doctor", "check the CUDA driver, runtime, LibTorch build and device", doctor},
    {"run", "run a program with the runtime shim and confirm findings", confirm::runCommand},
    {"confirm", "join a runtime trace with static findings", confirm::confirmCommand},
    {"merge-sarif", "merge the SARIF logs of CI shards into one run", mergeSarifCommand},
    {"lsp", "the language server for editors (docs/editors.md)", lsp::lspCommand},
};

std::string subcommandsHelp() {
  std::string Out;
  for (const Subcommand &S : Subcommands) {
    std::string Head = std::string("  torchtidy ") + S.Name + " ...";
    Out += Head + std::string(Head.size() < 30 ? 30 - Head.size() : 1, ' ') + S.Summary + "\n";
  }
  return Out + "  ('torchtidy <command> --help' for each)\n";
}

const Subcommand *findSubcommand(const char *Name) {
  for (const Subcommand &S : Subcommands)
    if (std::strcmp(S.Name, Name) == 0)
      return &S;
  return nullptr;
}

} // namespace torchtidy
