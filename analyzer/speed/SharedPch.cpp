#include "speed/SharedPch.h"

#include "frontend/AnalysisOptions.h"
#include "support/AtomicFile.h"
#include "frontend/CompileDb.h"
#include "frontend/IncludedFiles.h"
#include "support/Profile.h"

#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <nlohmann/json.hpp>

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

class FirstError : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level >= DiagnosticsEngine::Error && Message.empty()) {
      llvm::SmallString<256> Text;
      Info.FormatDiagnostic(Text);
      Message = Text.str().str();
    }
  }
  std::string Message;
};

class BuildPchAction : public GeneratePCHAction {
public:
  BuildPchAction(bool SkipBodies, std::shared_ptr<IncludedFiles> Inputs)
      : SkipBodies(SkipBodies), Inputs(std::move(Inputs)) {}
  bool PrepareToExecuteAction(CompilerInstance &CI) override {
    // As the analysis does: system function bodies are not parsed (all the
    // PCH's headers must be system headers for it to be used).
    CI.getFrontendOpts().SkipFunctionBodies = SkipBodies;
    CI.addDependencyCollector(Inputs);
    return true;
  }

private:
  bool SkipBodies;
  std::shared_ptr<IncludedFiles> Inputs;
};

} // namespace

std::string leadingTorchIncludes(llvm::StringRef Text) {
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
    if (End == llvm::StringRef::npos || !isTorchHeader(D.slice(1, End)) ||
        !D.drop_front(End + 1).trim().empty()) // a comment after it: keep it simple
      break;
    Out += "#include " + D.take_front(End + 1).str() + "\n";
    Text = Text.drop_front(Line.size());
  }
  return Out;
}

SharedPch::SharedPch(std::string CacheDir, const AnalysisOptions &Opts, FileStamps &Stamps)
    : Opts(Opts), Stamps(Stamps) {
  llvm::SmallString<256> P(CacheDir);
  llvm::sys::fs::make_absolute(P); // the PCH is built in the command's directory
  llvm::sys::path::append(P, "pch");
  Dir = P.str().str();
}

std::string SharedPch::path(const std::string &Key, llvm::StringRef Ext) const {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, Key + Ext.str());
  return P.str().str();
}

void SharedPch::prepare(const tooling::CompilationDatabase &DB, const std::vector<std::string> &Files,
                        unsigned Jobs, Profile *Prof) {
  tooling::ArgumentsAdjuster Adjust = analysisArgumentsAdjuster(Opts);
  for (const std::string &File : Files) {
    std::vector<tooling::CompileCommand> Cmds = DB.getCompileCommands(File);
    if (Cmds.size() != 1)
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(File);
    if (!Buf)
      continue;
    std::string Includes = leadingTorchIncludes((*Buf)->getBuffer());
    if (Includes.empty())
      continue;
    const tooling::CompileCommand &C = Cmds.front();
    llvm::SmallString<256> Abs(C.Filename);
    llvm::sys::fs::make_absolute(C.Directory, Abs);
    std::vector<std::string> Args;
    bool Usable = true;
    for (const std::string &A : Adjust(C.CommandLine, C.Filename)) {
      Usable &= !changesPrefix(A);
      if (A != C.Filename && A != Abs.str() && A != "-fsyntax-only" && A != "-c")
        Args.push_back(A);
    }
    if (!Usable)
      continue;
    std::vector<std::string> Parts = {"torchtidy-pch/1", getClangFullVersion(), C.Directory, Includes,
                                      Opts.SkipSystemBodies ? "skip" : "noskip"};
    Parts.insert(Parts.end(), Args.begin(), Args.end());
    llvm::BLAKE3 H;
    for (const std::string &Part : Parts) { // length-prefixed: ("ab","c") != ("a","bc")
      H.update(std::to_string(Part.size()) + ":");
      H.update(Part);
    }
    std::string Key = llvm::toHex(H.final(), /*LowerCase=*/true).substr(0, 32);
    Plan &P = Plans[Key];
    P.Key = Key;
    P.Args = std::move(Args);
    P.Directory = C.Directory;
    P.Includes = Includes;
    ++P.Users;
    KeyOfFile[File] = Key;
  }

  std::vector<Plan *> ToBuild;
  for (auto &[Key, P] : Plans) {
    if (upToDate(P)) {
      if (Prof && P.Ready)
        Prof->count("pch-reused");
    } else if (P.Users >= MinUsers) { // one file alone is faster parsed than precompiled
      ToBuild.push_back(&P);
    }
  }
  if (OnBuild && !ToBuild.empty())
    OnBuild(ToBuild.size());
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (size_t I = Next++; I < ToBuild.size(); I = Next++) {
      Stopwatch W;
      build(*ToBuild[I]);
      if (Prof) {
        Prof->addPhase("precompiled header", W.seconds());
        Prof->count("pch-built");
      }
    }
  };
  std::vector<std::thread> Threads;
  for (unsigned J = 1; J < std::min<size_t>(Jobs, ToBuild.size()); ++J)
    Threads.emplace_back(Worker);
  Worker();
  for (std::thread &T : Threads)
    T.join();
}

// The .inputs file: [usable, pch stamp, [[input, stamp], ...]]. The PCH
// itself is stat'ed afresh: this run may have rebuilt it.
bool SharedPch::upToDate(Plan &P) const {
  auto Buf = llvm::MemoryBuffer::getFile(path(P.Key, ".inputs"));
  if (!Buf)
    return false;
  try {
    nlohmann::json J = nlohmann::json::parse((*Buf)->getBuffer().str());
    bool Usable = J.at(0).get<bool>();
    if (Usable && J.at(1).get<std::string>() != fileStamp(path(P.Key, ".pch")))
      return false;
    std::vector<std::string> Inputs;
    for (const nlohmann::json &In : J.at(2)) {
      Inputs.push_back(In.at(0).get<std::string>());
      if (Stamps.of(Inputs.back()) != In.at(1).get<std::string>())
        return false;
    }
    P.Ready = Usable;
    P.Inputs = std::move(Inputs);
    return true;
  } catch (const std::exception &) {
    return false; // unreadable: built again
  }
}

void SharedPch::build(Plan &P) {
  std::string Header = path(P.Key, ".h"), Pch = path(P.Key, ".pch"), Error;
  auto Warn = [&](const std::string &Why) {
    std::lock_guard<std::mutex> G(Lock);
    Warnings.push_back("torchtidy: warning: no precompiled header for '" +
                       llvm::StringRef(P.Includes).trim().str() + "': " + Why +
                       "; LibTorch is parsed in each file instead");
  };
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
    return Warn(Dir + ": " + EC.message());
  if (!writeFileAtomically(Header, P.Includes, Error))
    return Warn(Error);

  std::vector<std::string> Argv = P.Args;
  Argv.insert(Argv.end(), {"-x", "c++-header", Header, "-o", Pch});
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = llvm::vfs::createPhysicalFileSystem();
  FS->setCurrentWorkingDirectory(P.Directory);
  auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), FS);
  auto Inputs = std::make_shared<IncludedFiles>();
  tooling::ToolInvocation Inv(Argv, std::make_unique<BuildPchAction>(Opts.SkipSystemBodies, Inputs),
                              Files.get());
  FirstError Diags;
  Inv.setDiagnosticConsumer(&Diags);
  if (!Inv.run() || Diags.getNumErrors())
    return Warn(Diags.Message.empty() ? "the compiler could not precompile it" : Diags.Message);

  // A header that is not a system header would be analysed in the TU
  // without the PCH and not with it: such a PCH is never used.
  bool Usable = true;
  for (const std::string &F : Inputs->userFiles())
    Usable &= F == Header;
  nlohmann::json In = nlohmann::json::array();
  P.Inputs.clear();
  for (const std::string &F : Inputs->getDependencies())
    if (F != Header) {
      In.push_back({F, fileStamp(F)});
      P.Inputs.push_back(F);
    }
  nlohmann::json Meta = {Usable, fileStamp(Pch), In};
  if (!writeFileAtomically(path(P.Key, ".inputs"), Meta.dump(), Error))
    return Warn(Error);
  P.Ready = Usable;
}

const SharedPch::Plan *SharedPch::planOf(const std::string &File) const {
  auto It = KeyOfFile.find(File);
  if (It == KeyOfFile.end())
    return nullptr;
  const Plan &P = Plans.at(It->second);
  return P.Ready ? &P : nullptr;
}

std::string SharedPch::pchFor(const std::string &File) const {
  const Plan *P = planOf(File);
  return P ? path(P->Key, ".pch") : "";
}

llvm::ArrayRef<std::string> SharedPch::inputsOf(const std::string &File) const {
  const Plan *P = planOf(File);
  return P ? llvm::ArrayRef<std::string>(P->Inputs) : llvm::ArrayRef<std::string>();
}

std::vector<std::string> SharedPch::takeWarnings() {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<std::string> Out = std::move(Warnings);
  std::sort(Out.begin(), Out.end());
  return Out;
}

} // namespace torchtidy
