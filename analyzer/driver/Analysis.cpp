#include "driver/Analysis.h"

#include "frontend/CompileDb.h"
#include "frontend/Frontend.h"
#include "findings/FindingCollector.h"
#include "frontend/IncludedFiles.h"
#include "frontend/Isolation.h"
#include "support/Profile.h"
#include "driver/AnalysisOrder.h"
#include "driver/ProgramResults.h"
#include "checks/Registry.h"
#include "speed/ResultCache.h"
#include "speed/SharedPch.h"

#include "analyses/DeviceExpr.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace clang;

namespace torchtidy {
namespace {

std::string unanalysable(const tooling::CompilationDatabase &DB, const std::string &File) {
  if (!llvm::sys::fs::exists(File))
    return "no such file";
  if (llvm::sys::fs::is_directory(File))
    return "is a directory, not a source file";
  // ClangTool makes the path "native", which on POSIX turns a backslash into
  // a '/': clang would be given another path.
  if (StringRef(File).contains('\\'))
    return "has a backslash in its path, which Clang's tooling reads as '/'; rename it";
  // Checked before clang sees it: a FIFO or device would block the parse,
  // and a binary file gives thousands of meaningless errors.
  if (!llvm::sys::fs::is_regular_file(File))
    return "is not a regular file (a pipe, socket or device)";
  // Only the head is read: this runs for every input, cache hits included.
  llvm::Expected<llvm::sys::fs::file_t> FD = llvm::sys::fs::openNativeFileForRead(File);
  if (!FD)
    return "cannot be read: " + llvm::toString(FD.takeError());
  char Buf[64 * 1024];
  llvm::Expected<size_t> Got = llvm::sys::fs::readNativeFile(*FD, Buf);
  llvm::sys::fs::closeFile(*FD);
  if (!Got)
    return "cannot be read: " + llvm::toString(Got.takeError());
  size_t Nul = StringRef(Buf, *Got).find('\0');
  if (Nul != StringRef::npos)
    return "is a binary file, not C++ source (a NUL byte at offset " + std::to_string(Nul) + ")";
  if (DB.getCompileCommands(File).empty())
    return "no compile command for this file in the compilation database";
  return "";
}

// clang refused the shared PCH (say, a header changed while it was built).
bool pchRefused(const TUResult &R) {
  for (const std::string &E : R.Errors)
    if (StringRef(E).contains("precompiled header") || StringRef(E).contains("PCH file") ||
        StringRef(E).contains("AST file"))
      return true;
  return false;
}

TUResult analyseOne(const tooling::CompilationDatabase &DB, const std::string &File,
                    const AnalysisOptions &Opts, const std::string &CacheKey) {
  Stopwatch Wall;
  std::string Pch = Opts.Pch ? Opts.Pch->pchFor(File) : "";
  TUResult Result;
  TURun Run{Result, Opts.Cache ? std::make_shared<IncludedFiles>() : nullptr};
  if (!Pch.empty()) {
    Run.PchHoldsUserHeaders = !Opts.Pch->userInputsOf(File).empty();
    if (Run.Included)
      Run.Included->pchInputsAre(Opts.Pch->inputsOf(File), Opts.Pch->userInputsOf(File));
  }
  std::string Crash = runIsolated([&] {
    runFrontend(DB, File, Opts, Pch, Run);
    if (!Pch.empty() && pchRefused(Result)) {
      if (Opts.Prof)
        Opts.Prof->count("pch-refused");
      Result = TUResult();
      Run.Included = Opts.Cache ? std::make_shared<IncludedFiles>() : nullptr;
      Run.PchHoldsUserHeaders = false;
      runFrontend(DB, File, Opts, "", Run);
    }
  });
  if (!Crash.empty()) {
    // What it found before the crash may be half-built: none of it is kept.
    Result = TUResult();
    Result.File = File;
    Result.Failure = "the analysis " + Crash + "; no findings for this file (please report it)";
    return Result;
  }
  if (Opts.Prof)
    Opts.Prof->addPhase("parse", Wall.seconds() - Run.CheckSeconds);
  if (Opts.Cache) {
    Stopwatch W;
    Opts.Cache->store(CacheKey, Result, Run.Included->getDependencies(), Run.Included->userFiles(),
                      Run.Included->missing(), Opts.Program);
    if (Opts.Prof)
      Opts.Prof->addPhase("result cache store", W.seconds());
  }
  return Result;
}

// The work queue of the TUs to analyse, shared with the threads: one that
// is abandoned after a timeout may outlive the call that started it.
struct Queue {
  std::mutex Lock;
  std::condition_variable Changed;
  size_t Taken = 0;
  std::vector<std::optional<TUResult>> Out;
  std::vector<std::optional<std::chrono::steady_clock::time_point>> Started;
  std::vector<bool> Given;     // handed to OnResult (done or timed out)
  std::vector<bool> Published; // in Table
  std::vector<std::vector<size_t>> After; // the TUs each waits for
  std::shared_ptr<const FunctionTable> Table; // what a TU started now is told of the others

  // The first TU not started whose predecessors are published; none when
  // all are started or the next ones wait.
  std::optional<size_t> nextReady() const {
    for (size_t M = 0; M < Started.size(); ++M)
      if (!Started[M] && llvm::all_of(After[M], [&](size_t P) { return Published[P]; }))
        return M;
    return std::nullopt;
  }
};

// Analyses Files[Misses[M]] for every M, in that order, on Jobs threads; a
// TU starts once the TUs After[M] names are done, knowing the functions of
// Known() then. OnResult runs on this thread.
void runMisses(const tooling::CompilationDatabase &DB, const std::vector<std::string> &Files,
               const AnalysisOptions &Opts, const std::vector<std::string> &Keys,
               const std::vector<size_t> &Misses, std::vector<std::vector<size_t>> After,
               unsigned Jobs, llvm::function_ref<void(size_t, TUResult)> OnResult,
               llvm::function_ref<FunctionTable()> Known) {
  auto Q = std::make_shared<Queue>();
  size_t N = Misses.size();
  Q->Table = std::make_shared<const FunctionTable>(Known());
  Q->Out.resize(N);
  Q->Started.resize(N);
  Q->Given.resize(N);
  Q->Published.resize(N);
  Q->After = std::move(After);
  Q->After.resize(N);
  auto Worker = [Q, N, &DB, &Files, &Opts, &Keys, &Misses] {
    for (;;) {
      std::optional<size_t> M;
      std::shared_ptr<const FunctionTable> Table;
      {
        std::unique_lock<std::mutex> G(Q->Lock);
        while (Q->Taken < N && !(M = Q->nextReady()))
          Q->Changed.wait(G);
        if (!M)
          return;
        ++Q->Taken;
        Q->Started[*M] = std::chrono::steady_clock::now();
        Table = Q->Table;
      }
      AnalysisOptions Mine = Opts;
      Mine.Program = Table.get();
      TUResult R = analyseOne(DB, Files[Misses[*M]], Mine, Keys[Misses[*M]]);
      std::lock_guard<std::mutex> G(Q->Lock);
      if (Q->Given[*M])
        return; // timed out meanwhile: the caller may be gone
      Q->Out[*M] = std::move(R);
      Q->Changed.notify_all();
    }
  };
  std::vector<std::thread> Threads;
  for (unsigned J = 0; J < Jobs; ++J)
    Threads.emplace_back(Worker);
  auto Limit = std::chrono::seconds(Opts.TimeoutSeconds);
  size_t Given = 0;
  std::unique_lock<std::mutex> L(Q->Lock);
  while (Given < Misses.size()) {
    Q->Changed.wait_for(L, std::chrono::milliseconds(200));
    auto Now = std::chrono::steady_clock::now();
    for (size_t M = 0; M < Misses.size(); ++M) {
      if (Q->Given[M])
        continue;
      if (!Q->Out[M]) {
        if (!Opts.TimeoutSeconds || !Q->Started[M] || Now - *Q->Started[M] < Limit)
          continue;
        TUResult T;
        T.File = Files[Misses[M]];
        T.Failure = "the analysis took longer than --timeout=" +
                    std::to_string(Opts.TimeoutSeconds) + " s and was given up";
        Q->Out[M] = std::move(T);
        noteAbandonedWork();
        // Its thread is stuck: a new one keeps -j workers going.
        Threads.emplace_back(Worker);
      }
      Q->Given[M] = true;
      ++Given;
      TUResult R = std::move(*Q->Out[M]);
      L.unlock();
      OnResult(Misses[M], std::move(R));
      auto Table = std::make_shared<const FunctionTable>(Known());
      L.lock();
      Q->Table = std::move(Table);
      Q->Published[M] = true;
      Q->Changed.notify_all();
    }
  }
  L.unlock();
  // The threads return once the queue is empty; a stuck one is left behind.
  for (std::thread &T : Threads)
    if (workWasAbandoned())
      T.detach();
    else
      T.join();
}

// A TU whose calls reach functions of other files is analysed again once
// the summaries of all files are known; a chain through several files may
// take a few rounds. Analysed is the TUs prepared for the shared PCH.
void recheck(const tooling::CompilationDatabase &DB, const std::vector<std::string> &Files,
             const AnalysisOptions &Opts, const std::vector<std::string> &Keys,
             std::vector<size_t> Analysed, std::vector<TUResult> &Results) {
  const int MaxRounds = 4;
  for (int Round = 0; Round < MaxRounds; ++Round) {
    FunctionTable Table = programTable(Results);
    std::vector<size_t> Stale = staleResults(Results, Table);
    if (Stale.empty())
      return;
    unsigned Jobs = std::max<unsigned>(1, std::min<size_t>(Opts.Jobs, Stale.size()));
    std::vector<std::string> Unprepared;
    for (size_t I : Stale)
      if (!llvm::is_contained(Analysed, I)) {
        Unprepared.push_back(Files[I]);
        Analysed.push_back(I);
      }
    if (Opts.Pch && !Unprepared.empty())
      Opts.Pch->prepare(DB, Unprepared, Jobs, Opts.Prof);
    if (Opts.Prof)
      Opts.Prof->count("rechecked", Stale.size());
    runMisses(
        DB, Files, Opts, Keys, Stale, {}, Jobs,
        [&](size_t I, TUResult R) { Results[I] = std::move(R); }, [&] { return Table; });
  }
}

} // namespace

std::vector<TUResult> analyse(const tooling::CompilationDatabase &DB,
                              const std::vector<std::string> &Files,
                              const AnalysisOptions &Opts) {
  std::vector<TUResult> Results(Files.size());
  std::mutex DoneLock;
  size_t Done = 0;
  auto Finished = [&](size_t I) {
    if (Opts.OnDone) {
      std::lock_guard<std::mutex> G(DoneLock);
      Opts.OnDone(Results[I], ++Done, Files.size());
    }
  };
  // Cache lookups first (cheap, no parsing): only the misses are planned
  // for the shared PCH and analysed.
  std::vector<std::string> Keys(Files.size());
  std::vector<size_t> Misses;
  std::vector<std::string> MissedFiles;
  for (size_t I = 0; I < Files.size(); ++I) {
    Results[I].File = Files[I];
    Results[I].Failure = unanalysable(DB, Files[I]);
    if (!Results[I].Failure.empty()) {
      Finished(I);
      continue;
    }
    if (Opts.Cache) {
      Stopwatch W;
      Keys[I] = Opts.Cache->key(Opts, DB.getCompileCommands(Files[I]), Files[I]);
      std::optional<TUResult> Hit = Opts.Cache->lookup(Keys[I]);
      if (Opts.Prof) {
        Opts.Prof->addPhase("result cache lookup", W.seconds());
        Opts.Prof->count(Hit ? "cache-hits" : "cache-misses");
      }
      if (Hit) {
        Results[I] = std::move(*Hit);
        Results[I].File = Files[I];
        Finished(I);
        continue;
      }
    }
    Misses.push_back(I);
    MissedFiles.push_back(Files[I]);
  }
  unsigned Jobs = std::max<unsigned>(1, std::min<size_t>(Opts.Jobs, Misses.size()));
  if (Opts.Pch)
    Opts.Pch->prepare(DB, MissedFiles, Jobs, Opts.Prof);

  // Each miss is analysed knowing the functions of the cache hits and of
  // the files done before it, callees' files first: an edit of the file
  // with the loop, and most calls of a cold run, need no second parse.
  AnalysisOrder Order = calleesFirst(MissedFiles, [&](const std::string &File) {
    std::vector<tooling::CompileCommand> Commands = DB.getCompileCommands(File);
    return Commands.empty() ? std::vector<std::string>() : includeSearchDirs(Commands.front());
  });
  std::vector<size_t> Ordered;
  for (size_t I : Order.Files)
    Ordered.push_back(Misses[I]);
  runMisses(
      DB, Files, Opts, Keys, Ordered, std::move(Order.After), Jobs,
      [&](size_t I, TUResult R) {
        Results[I] = std::move(R);
        Finished(I);
      },
      [&] { return programTable(Results); });
  recheck(DB, Files, Opts, Keys, Misses, Results);
  if (programIsCpuOnly(Results, DB))
    dropCudaOnlyFindings(Results);
  return Results;
}

} // namespace torchtidy
