#include "findings/ChangedLines.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace torchtidy {
namespace {

// Runs git with Args in the working directory; its stdout, or nullopt with
// Error holding what it said on stderr.
std::optional<std::string> git(llvm::ArrayRef<llvm::StringRef> Args, std::string &Error) {
  auto Git = llvm::sys::findProgramByName("git");
  if (!Git) {
    Error = "git is not on PATH";
    return std::nullopt;
  }
  llvm::SmallString<128> Out, Err;
  llvm::sys::fs::createTemporaryFile("torchtidy-git", "out", Out);
  llvm::sys::fs::createTemporaryFile("torchtidy-git", "err", Err);
  llvm::SmallVector<llvm::StringRef, 8> Argv = {*Git};
  Argv.append(Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Out.str(), Err.str()};
  int Status = llvm::sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects);
  auto Read = [](llvm::StringRef Path) {
    auto B = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  std::string Stdout = Read(Out), Stderr = Read(Err);
  llvm::sys::fs::remove(Out);
  llvm::sys::fs::remove(Err);
  if (Status != 0) {
    Error = "git " + Args.front().str() + " failed: " + llvm::StringRef(Stderr).trim().str();
    return std::nullopt;
  }
  return Stdout;
}

} // namespace

std::optional<ChangedLines> ChangedLines::since(llvm::StringRef Rev, std::string &Error) {
  std::optional<std::string> Root = git({"rev-parse", "--show-toplevel"}, Error);
  if (!Root)
    return std::nullopt;
  std::optional<std::string> Diff =
      git({"diff", "-U0", "--no-color", "--no-ext-diff", Rev, "--"}, Error);
  if (!Diff) {
    Error = "--diff=" + Rev.str() + ": " + Error;
    return std::nullopt;
  }
  return parse(*Diff, llvm::StringRef(*Root).trim());
}

ChangedLines ChangedLines::parse(llvm::StringRef Diff, llvm::StringRef Root) {
  ChangedLines C;
  std::string File;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Diff.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (L.consume_front("+++ ")) {
      File.clear();
      if (L.consume_front("b/")) {
        llvm::SmallString<256> P(Root);
        llvm::sys::path::append(P, L);
        File = P.str().str();
        C.Ranges[File];
      }
    } else if (L.consume_front("@@ ") && !File.empty()) {
      // "@@ -a[,b] +c[,d] @@": the new side starts at c and has d lines
      // (one when d is absent, none when d is 0: a pure deletion).
      size_t Plus = L.find('+');
      if (Plus == llvm::StringRef::npos)
        continue;
      llvm::StringRef New = L.substr(Plus + 1).take_until([](char Ch) { return Ch == ' '; });
      auto [Start, Count] = New.split(',');
      unsigned First = 0, N = 1;
      if (Start.getAsInteger(10, First) || (!Count.empty() && Count.getAsInteger(10, N)))
        continue;
      if (N > 0)
        C.Ranges[File].push_back({First, First + N - 1});
    }
  }
  return C;
}

bool ChangedLines::lineChanged(llvm::StringRef Path, unsigned Line) const {
  auto It = Ranges.find(Path.str());
  if (It == Ranges.end())
    return false;
  for (const auto &[First, Last] : It->second)
    if (Line >= First && Line <= Last)
      return true;
  return false;
}

} // namespace torchtidy
