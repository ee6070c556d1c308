// torchtidy run [options] -- ./app args   and   torchtidy confirm <trace> <findings>
#include "support/AtomicFile.h"
#include "confirm/Confirm.h"
#include "confirm/Help.h"
#include "formats/SarifLog.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace torchtidy {
namespace confirm {

using nlohmann::json;

namespace {

struct Options {
  std::string Findings, Output, Format, TracePath, Shim;
  unsigned Hot = 10;
  bool Quiet = false;
};

int usage(const std::string &Msg, const char *Cmd) {
  llvm::errs() << "torchtidy " << Cmd << ": error: " << Msg << "\n"
               << (std::strcmp(Cmd, "run") == 0 ? RunHelp : ConfirmHelp);
  return 2;
}

bool isHelp(llvm::StringRef A) { return A == "-h" || A == "--help"; }

// Returns false (and sets Error) for an unknown option.
bool parseOption(llvm::StringRef A, Options &O, std::string &Error) {
  auto value = [&](llvm::StringRef Name, std::string &Into) {
    if (A.consume_front(Name)) {
      Into = A.str();
      return true;
    }
    return false;
  };
  std::string Hot;
  if (value("--findings=", O.Findings) || value("--sarif=", O.Findings) || value("--output=", O.Output) ||
      value("--format=", O.Format) || value("--trace=", O.TracePath) || value("--shim=", O.Shim))
    return true;
  if (value("--hot=", Hot)) {
    O.Hot = unsigned(std::strtoul(Hot.c_str(), nullptr, 10));
    return true;
  }
  if (A == "--quiet") {
    O.Quiet = true;
    return true;
  }
  Error = "unknown option '" + A.str() + "'";
  return false;
}

std::string ms(uint64_t Ns) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::format("%.3f ms", double(Ns) / 1e6);
  return S;
}

std::string runtimeText(const StaticFinding &F, const Trace &T) {
  if (F.Status == "no-runtime-signal")
    return "no runtime signal for this check";
  if (F.Status == "not-observable")
    return "not observable on a CPU-only run (no copy between devices can happen)";
  if (F.Status == "not-executed")
    return T.deviceObserved() || signalOf(F.Rule) != RuntimeSignal::HostSync
               ? "not executed"
               : "not executed as a scalar read (a CPU-only run shows no copy to the host or CUDA sync)";
  std::string S = "confirmed: " + std::to_string(F.Hits) + " hits, " + std::to_string(F.Blocking) + " blocking, " +
                  ms(F.Blocking ? F.BlockedNs : F.TotalNs) + (F.Blocking ? " blocked" : " in the ops");
  if (T.Evidence != "device")
    S += " (CPU evidence: the code ran, a stall is not shown)";
  return S;
}

json runtimeJson(const StaticFinding &F, const Trace &T) {
  return {{"status", F.Status},     {"hits", F.Hits},
          {"blocking", F.Blocking}, {"blocked_ms", double(F.BlockedNs) / 1e6},
          {"op_ms", double(F.TotalNs) / 1e6}, {"evidence", T.Evidence}, {"summary", runtimeText(F, T)}};
}

std::string relative(const std::string &P) {
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd)) {
    std::string Prefix = Cwd.str().str() + "/";
    if (P.rfind(Prefix, 0) == 0)
      return P.substr(Prefix.size());
  }
  return P;
}

void printReport(const Trace &T, const std::vector<StaticFinding> &F, const std::vector<RuntimeOnly> &Only,
                 bool HaveFindings, llvm::raw_ostream &OS) {
  OS << "torchtidy: trace " << T.Path << ": " << T.Sites << " call sites, " << T.Events << " events";
  if (T.Dropped)
    OS << ", " << T.Dropped << " dropped (too many call sites)";
  OS << "\n";
  OS << "torchtidy: evidence: " << (T.Evidence == "device" ? "device (CUDA observed)" : "CPU only") << ": "
     << T.CudaReason << "\n";
  if (T.EndHow == "signal")
    OS << "torchtidy: the program died of signal " << T.EndSignal << " (" << T.EndDescription
       << "); the trace covers its run up to there\n";
  if (!T.deviceObserved())
    OS << "torchtidy: note: on a CPU-only run the counts say how often the code ran, not what it costs on a "
          "GPU: no copy between devices can happen, scalar reads wait for no device, CUDA syncs are not seen\n";
  for (const std::string &N : T.Notes)
    OS << "torchtidy: note: " << N << "\n";
  for (const StaticFinding &X : F)
    OS << relative(X.File) << ":" << X.Line << ":" << X.Column << ": " << X.Rule << ": " << runtimeText(X, T)
       << "\n";
  for (const RuntimeOnly &R : Only)
    OS << relative(R.File) << ":" << R.Line << ": " << R.Rule << ": " << R.Message << " (" << R.Blocking
       << " blocking, " << ms(R.BlockedNs) << " blocked)\n";
  unsigned Confirmed = 0, NotRun = 0, Unseen = 0;
  for (const StaticFinding &X : F)
    Confirmed += X.Status == "confirmed", NotRun += X.Status == "not-executed", Unseen += X.Status == "not-observable";
  OS << "torchtidy: " << Confirmed << " confirmed, " << NotRun << " not executed";
  if (Unseen)
    OS << ", " << Unseen << " not observable (CPU only)";
  if (!HaveFindings)
    OS << " (no static findings given)";
  OS << ", " << Only.size() << " runtime-only\n";
}

// SARIF goes through the one SARIF writer: the input log annotated, or a
// log of the findings read from JSON.
std::string sarifOutput(const Trace &T, const std::vector<StaticFinding> &F, const std::vector<RuntimeOnly> &Only,
                        const json &Input, bool InputSarif) {
  std::vector<SarifResult> Static;
  std::vector<json> Runtime;
  for (const StaticFinding &X : F) {
    if (!InputSarif)
      Static.push_back({X.Rule, X.Message, X.File, X.Line, X.Column, nullptr});
    Runtime.push_back({{"torchtidy.runtime", runtimeJson(X, T)}});
  }
  std::vector<SarifResult> Extra;
  for (const RuntimeOnly &R : Only)
    Extra.push_back({R.Rule, R.Message, R.File, R.Line, 0,
                     {{"torchtidy.runtime",
                       {{"status", "runtime-only"}, {"hits", R.Hits}, {"blocking", R.Blocking},
                        {"blocked_ms", double(R.BlockedNs) / 1e6}, {"evidence", T.Evidence}}}}});
  return annotatedSarif(InputSarif ? Input : sarifLog(Static), Runtime, Extra);
}

bool writeOutput(const Options &O, const Trace &T, const std::vector<StaticFinding> &F,
                 const std::vector<RuntimeOnly> &Only, const json &Input, bool InputSarif, std::string &Error) {
  std::string Format = O.Format.empty() ? (InputSarif ? "sarif" : "json") : O.Format;
  if (Format == "sarif")
    return writeFileAtomically(O.Output, sarifOutput(T, F, Only, Input, InputSarif), Error);
  if (Format != "json") {
    Error = "unknown --format '" + Format + "' (json or sarif)";
    return false;
  }
  json Out;
  Out["format"] = "torchtidy-confirmed/1";
  Out["trace"] = T.Path;
  Out["evidence"] = T.Evidence;
  Out["cuda_reason"] = T.CudaReason;
  Out["notes"] = T.Notes;
  Out["findings"] = json::array();
  for (const StaticFinding &X : F)
    Out["findings"].push_back({{"check", X.Rule},
                               {"file", X.File},
                               {"line", X.Line},
                               {"column", X.Column},
                               {"message", X.Message},
                               {"runtime", runtimeJson(X, T)}});
  Out["runtime_only"] = json::array();
  for (const RuntimeOnly &R : Only)
    Out["runtime_only"].push_back({{"check", R.Rule},
                                   {"file", R.File},
                                   {"line", R.Line},
                                   {"op", R.Op},
                                   {"message", R.Message},
                                   {"hits", R.Hits},
                                   {"blocking", R.Blocking},
                                   {"blocked_ms", double(R.BlockedNs) / 1e6}});
  return writeFileAtomically(O.Output, Out.dump(2, ' ', false, json::error_handler_t::replace) + "\n", Error);
}

int joinAndReport(const Options &O, const std::string &TracePath, const char *Cmd) {
  Trace T;
  std::string Error;
  if (!readTrace(TracePath, T, Error)) {
    llvm::errs() << "torchtidy " << Cmd << ": error: " << Error << "\n";
    return 3;
  }
  std::vector<StaticFinding> F;
  json Input;
  bool Sarif = false;
  if (!O.Findings.empty() && !readFindings(O.Findings, F, Input, Sarif, Error)) {
    llvm::errs() << "torchtidy " << Cmd << ": error: " << Error << "\n";
    return 3;
  }
  std::vector<RuntimeOnly> Only;
  join(T, F, Only, O.Hot);
  printReport(T, F, Only, !O.Findings.empty(), std::strcmp(Cmd, "run") == 0 ? llvm::errs() : llvm::outs());
  if (!O.Output.empty() && !writeOutput(O, T, F, Only, Input, Sarif, Error)) {
    llvm::errs() << "torchtidy " << Cmd << ": error: " << Error << "\n";
    return 3;
  }
  return 0;
}

} // namespace

int confirmCommand(int Argc, const char **Argv, const char *) {
  Options O;
  std::vector<std::string> Pos;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A(Argv[I]);
    std::string Error;
    if (isHelp(A)) {
      llvm::outs() << ConfirmHelp;
      return 0;
    }
    if (A.starts_with("--")) {
      if (!parseOption(A, O, Error))
        return usage(Error, "confirm");
    } else
      Pos.push_back(A.str());
  }
  if (Pos.empty() || Pos.size() > 2)
    return usage("expected a trace and, optionally, a findings file", "confirm");
  if (Pos.size() == 2)
    O.Findings = Pos[1];
  return joinAndReport(O, Pos[0], "confirm");
}

int runCommand(int Argc, const char **Argv, const char *Self) {
  Options O;
  int I = 1;
  for (; I < Argc; ++I) {
    llvm::StringRef A(Argv[I]);
    if (A == "--") {
      ++I;
      break;
    }
    if (isHelp(A)) {
      llvm::outs() << RunHelp;
      return 0;
    }
    std::string Error;
    if (!parseOption(A, O, Error))
      return usage(Error, "run");
  }
  if (I >= Argc)
    return usage("no program given after '--'", "run");
  if (O.Shim.empty()) {
    if (const char *E = std::getenv("TORCHTIDY_RT"))
      O.Shim = E;
    else {
      std::string Exe = llvm::sys::fs::getMainExecutable(Self, (void *)&runCommand);
      llvm::SmallString<256> P(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
      llvm::sys::path::append(P, "lib", "libtorchtidy_rt.so");
      O.Shim = P.str().str();
    }
  }
  if (!llvm::sys::fs::exists(O.Shim)) {
    llvm::errs() << "torchtidy run: error: the runtime shim " << O.Shim
                 << " does not exist (it is built with the runtime part of torchtidy; --shim= names another)\n";
    return 2;
  }
  bool TempTrace = O.TracePath.empty();
  if (TempTrace) {
    llvm::SmallString<128> Tmp;
    if (auto EC = llvm::sys::fs::createTemporaryFile("torchtidy-trace", "json", Tmp)) {
      llvm::errs() << "torchtidy run: error: cannot create a temporary trace file: " << EC.message() << "\n";
      return 3;
    }
    O.TracePath = Tmp.str().str();
  }
  llvm::sys::fs::remove(O.TracePath); // a stale trace must not pass for this run's

  std::vector<std::string> Env;
  for (char **E = environ; *E; ++E) {
    llvm::StringRef V(*E);
    if (V.starts_with("LD_PRELOAD=") || V.starts_with("TORCHTIDY_TRACE="))
      continue;
    Env.push_back(V.str());
  }
  std::string Preload = O.Shim;
  if (const char *Old = std::getenv("LD_PRELOAD"))
    if (*Old)
      Preload += std::string(":") + Old;
  Env.push_back("LD_PRELOAD=" + Preload);
  Env.push_back("TORCHTIDY_TRACE=" + O.TracePath);
  std::vector<char *> EnvP, ArgP;
  for (std::string &S : Env)
    EnvP.push_back(S.data());
  EnvP.push_back(nullptr);
  for (int J = I; J < Argc; ++J)
    ArgP.push_back(const_cast<char *>(Argv[J]));
  ArgP.push_back(nullptr);

  pid_t Pid;
  int Err = posix_spawnp(&Pid, ArgP[0], nullptr, nullptr, ArgP.data(), EnvP.data());
  if (Err != 0) {
    llvm::errs() << "torchtidy run: error: cannot run " << ArgP[0] << ": " << std::strerror(Err) << "\n";
    return 3;
  }
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  int ExitCode = 0;
  std::string How;
  if (WIFEXITED(Status)) {
    ExitCode = WEXITSTATUS(Status);
    How = "exited with status " + std::to_string(ExitCode);
  } else if (WIFSIGNALED(Status)) {
    ExitCode = 128 + WTERMSIG(Status);
    How = std::string("was killed by signal ") + std::to_string(WTERMSIG(Status)) + " (" +
          strsignal(WTERMSIG(Status)) + ")";
  }
  if (ExitCode != 0)
    llvm::errs() << "torchtidy run: note: " << ArgP[0] << " " << How << "\n";
  if (!llvm::sys::fs::exists(O.TracePath)) {
    llvm::errs() << "torchtidy run: error: " << ArgP[0] << " " << How << " and left no trace at " << O.TracePath
                 << ": it ended before the shim could write it (SIGKILL, _exit(), or a crash inside the shim), "
                    "or the shim was not loaded (a static or setuid program)\n";
    return ExitCode ? ExitCode : 3;
  }
  int R = joinAndReport(O, O.TracePath, "run");
  if (TempTrace)
    llvm::sys::fs::remove(O.TracePath);
  else
    llvm::errs() << "torchtidy run: trace written to " << O.TracePath << "\n";
  return R ? R : ExitCode;
}

} // namespace confirm
} // namespace torchtidy
