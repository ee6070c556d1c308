#include "speed/SharedPch.h"

#include "frontend/AnalysisOptions.h"
#include "frontend/CompileDb.h"
#include "frontend/IncludedFiles.h"
#include "speed/PchBuild.h"
#include "support/AtomicFile.h"
#include "support/Profile.h"

#include "clang/Basic/Version.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <atomic>
#include <thread>

using namespace clang;

namespace torchtidy {
namespace {

// Flags that put something before the first line of the file, or change
// its language: with them the PCH would not be the file's prefix.
bool changesPrefix(llvm::StringRef Arg) {
  return Arg.starts_with("-include") || Arg.starts_with("-imacros") || Arg.starts_with("-x") ||
         Arg.starts_with("--include") || Arg == "-fmodules";
}

// The command of a file less the file itself, for building its preamble;
// none when the preamble would not be its prefix. A command inferred from a
// neighbour's (a file missing from the database) ends in "-- <file>" and
// may name the language with "-x c++": the preamble is built as c++-header
// with its own "-x" and input, which must not come after a "--", so both
// go (the same flags as the neighbour's then share its preamble).
std::optional<std::vector<std::string>> preambleArgs(const std::vector<std::string> &Command,
                                                     const tooling::CompileCommand &C) {
  // The command may name the file relative to its directory, the database
  // by its absolute path.
  auto AbsoluteIn = [&](llvm::StringRef Name) {
    llvm::SmallString<256> P(Name);
    llvm::sys::fs::make_absolute(C.Directory, P);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return P;
  };
  llvm::SmallString<256> File = AbsoluteIn(C.Filename);
  std::vector<std::string> Args;
  for (size_t I = 0; I < Command.size(); ++I) {
    llvm::StringRef A = Command[I];
    if (A == "--" || A == "-fsyntax-only" || A == "-c" || (!A.starts_with("-") && AbsoluteIn(A) == File))
      continue;
    if (A == "-xc++" || (A == "-x" && I + 1 < Command.size() && Command[I + 1] == "c++")) {
      I += A == "-x";
      continue;
    }
    if (changesPrefix(A))
      return std::nullopt;
    Args.push_back(A.str());
  }
  if (Args.empty())
    return std::nullopt;
  return Args;
}

// The header names of leadingIncludes' lines.
std::vector<llvm::StringRef> includedNames(llvm::StringRef Includes) {
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  Includes.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::vector<llvm::StringRef> Names;
  for (llvm::StringRef L : Lines)
    Names.push_back(L.drop_front(strlen("#include ")).drop_front().drop_back());
  return Names;
}

std::string sourceText(const std::string &File, const AnalysisOptions &Opts) {
  auto It = Opts.Overlays.find(File);
  if (It != Opts.Overlays.end())
    return It->second;
  auto Buf = llvm::MemoryBuffer::getFile(File);
  return Buf ? (*Buf)->getBuffer().str() : "";
}

} // namespace

std::string leadingIncludes(llvm::StringRef Text) {
  std::string Out;
  while (true) {
    Text = Text.ltrim();
    if (Text.consume_front("//")) {
      Text = Text.drop_until([](char C) { return C == '\n'; });
      continue;
    }
    if (Text.consume_front("/*")) {
      size_t End = Text.find("*/");
      if (End == llvm::StringRef::npos)
        return "";
      Text = Text.drop_front(End + 2);
      continue;
    }
    llvm::StringRef Line = Text.take_until([](char C) { return C == '\n'; });
    llvm::StringRef D = Line;
    if (!D.consume_front("#"))
      break;
    D = D.ltrim(" \t");
    if (!D.consume_front("include"))
      break;
    D = D.ltrim(" \t");
    char Close = D.starts_with("<") ? '>' : D.starts_with("\"") ? '"' : 0;
    if (!Close)
      break;
    size_t End = D.find(Close, 1);
    llvm::StringRef Rest = End == llvm::StringRef::npos ? "" : D.drop_front(End + 1).trim();
    if (End == llvm::StringRef::npos || End == 1 || (!Rest.empty() && !Rest.starts_with("//")))
      break;
    Out += "#include " + D.take_front(End + 1).str() + "\n";
    Text = Text.drop_front(Line.size());
  }
  return Out;
}

SharedPch::SharedPch(std::string CacheDir, const AnalysisOptions &Opts, FileStamps &Stamps,
                     uint64_t MaxBytes)
    : Store(std::move(CacheDir), MaxBytes), Opts(Opts), Stamps(Stamps) {}

void SharedPch::prepare(const tooling::CompilationDatabase &DB, const std::vector<std::string> &Files,
                        unsigned Jobs, Profile *Prof) {
  tooling::ArgumentsAdjuster Adjust = analysisArgumentsAdjuster(Opts);
  std::vector<Plan *> New;
  for (const std::string &File : Files) {
    std::vector<tooling::CompileCommand> Cmds = DB.getCompileCommands(File);
    if (Cmds.size() != 1)
      continue;
    std::string Includes = leadingIncludes(sourceText(File, Opts));
    if (Includes.empty())
      continue;
    const tooling::CompileCommand &C = Cmds.front();
    llvm::SmallString<256> Abs(C.Filename);
    llvm::sys::fs::make_absolute(C.Directory, Abs);
    std::optional<std::vector<std::string>> Args = preambleArgs(Adjust(C.CommandLine, C.Filename), C);
    if (!Args)
      continue;
    // "x.h" is looked for beside the file first; the PCH's header lives in
    // the cache, so the file's directory is searched right after it.
    std::string Beside;
    if (llvm::StringRef(Includes).contains('"')) {
      Beside = llvm::sys::path::parent_path(Abs).str();
      Args->insert(Args->begin() + 1, {"-iquote", Beside});
    }
    std::vector<std::string> Parts = {"torchtidy-pch/2", getClangFullVersion(), C.Directory, Includes,
                                      Opts.SkipSystemBodies ? "skip" : "noskip"};
    Parts.insert(Parts.end(), Args->begin(), Args->end());
    llvm::BLAKE3 H;
    for (const std::string &Part : Parts) { // length-prefixed: ("ab","c") != ("a","bc")
      H.update(std::to_string(Part.size()) + ":");
      H.update(Part);
    }
    std::string Key = llvm::toHex(H.final(), /*LowerCase=*/true).substr(0, 32);
    KeyOfFile[File] = Key;
    auto [It, Inserted] = Plans.try_emplace(Key);
    if (!Inserted)
      continue;
    Plan &P = It->second;
    P.Key = Key;
    P.Args = std::move(*Args);
    P.Directory = C.Directory;
    P.Includes = Includes;
    New.push_back(&P);
  }

  std::vector<Plan *> ToBuild;
  for (Plan *P : New) {
    if (std::optional<PreambleMeta> M = Store.lookup(P->Key, Stamps)) {
      P->Meta = std::move(*M);
      P->Ready = P->Meta.Usable;
      if (Prof && (P->Ready || P->Meta.Failed))
        Prof->count(P->Ready ? "pch-reused" : "pch-known-failed");
    } else {
      ToBuild.push_back(P);
    }
  }
  if (OnBuild && !ToBuild.empty())
    OnBuild(ToBuild.size());
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (size_t I = Next++; I < ToBuild.size(); I = Next++) {
      Stopwatch W;
      const char *Outcome = build(*ToBuild[I]);
      if (Prof) {
        Prof->addPhase("precompiled header", W.seconds());
        if (Outcome)
          Prof->count(Outcome);
      }
    }
  };
  std::vector<std::thread> Threads;
  for (unsigned J = 1; J < std::min<size_t>(Jobs, ToBuild.size()); ++J)
    Threads.emplace_back(Worker);
  Worker();
  for (std::thread &T : Threads)
    T.join();

  if (ToBuild.empty())
    return;
  llvm::StringSet<> InUse;
  for (const auto &[Key, P] : Plans)
    InUse.insert(Key);
  if (unsigned Evicted = Store.evict(InUse); Evicted && Prof)
    Prof->count("pch-evicted", Evicted);
}

// "pch-built" (usable or not), "pch-failed" (and recorded so), or null
// when the cache directory could not be written.
const char *SharedPch::build(Plan &P) {
  std::string Header = Store.path(P.Key, ".h"), Pch = Store.path(P.Key, ".pch"), Error;
  std::vector<llvm::StringRef> Names = includedNames(P.Includes);
  // A block of LibTorch headers that fails is worth a word; one with the
  // project's headers fails as the file does, and the file's errors say why.
  bool OnlyTorch = llvm::all_of(Names, [](llvm::StringRef N) { return isTorchHeader(N); });
  auto Warn = [&](const std::string &Why) {
    std::lock_guard<std::mutex> G(Lock);
    Warnings.push_back("torchtidy: warning: no precompiled header for '" +
                       llvm::StringRef(P.Includes).trim().str() + "': " + Why +
                       "; its headers are parsed in each file instead");
    return nullptr;
  };
  if (std::error_code EC = llvm::sys::fs::create_directories(Store.dir()))
    return Warn(Store.dir() + ": " + EC.message());
  if (!writeFileAtomically(Header, P.Includes, Error))
    return Warn(Error);
  PchBuildResult R = buildPch(P.Args, P.Directory, Header, Pch, Opts.SkipSystemBodies);
  P.Meta.Failed = !R.Error.empty();
  P.Meta.Missing = std::move(R.Missing);
  P.Meta.Usable = R.Usable;
  P.Meta.Inputs = std::move(R.Inputs);
  P.Meta.UserInputs = std::move(R.UserInputs);
  llvm::sort(P.Meta.UserInputs);
  P.Meta.UserInputs.erase(std::unique(P.Meta.UserInputs.begin(), P.Meta.UserInputs.end()),
                          P.Meta.UserInputs.end());
  if (!Store.record(P.Key, P.Meta, Error))
    return Warn(Error);
  if (P.Meta.Failed) {
    if (OnlyTorch && !R.ReadUserHeader)
      Warn(R.Error);
    return "pch-failed";
  }
  P.Ready = P.Meta.Usable;
  return "pch-built";
}

const SharedPch::Plan *SharedPch::planOf(const std::string &File) const {
  auto It = KeyOfFile.find(File);
  if (It == KeyOfFile.end())
    return nullptr;
  const Plan &P = Plans.at(It->second);
  if (!P.Ready)
    return nullptr;
  // An unsaved buffer of a header it holds (the language server) differs
  // from what it was built from.
  for (const std::string &U : P.Meta.UserInputs)
    if (Opts.Overlays.count(U))
      return nullptr;
  return &P;
}

std::string SharedPch::pchFor(const std::string &File) const {
  const Plan *P = planOf(File);
  return P ? Store.path(P->Key, ".pch") : "";
}

llvm::ArrayRef<std::string> SharedPch::inputsOf(const std::string &File) const {
  const Plan *P = planOf(File);
  return P ? llvm::ArrayRef<std::string>(P->Meta.Inputs) : llvm::ArrayRef<std::string>();
}

llvm::ArrayRef<std::string> SharedPch::userInputsOf(const std::string &File) const {
  const Plan *P = planOf(File);
  return P ? llvm::ArrayRef<std::string>(P->Meta.UserInputs) : llvm::ArrayRef<std::string>();
}

std::vector<std::string> SharedPch::takeWarnings() {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<std::string> Out = std::move(Warnings);
  std::sort(Out.begin(), Out.end());
  return Out;
}

} // namespace torchtidy
