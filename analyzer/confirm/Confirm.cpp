#include "confirm/Confirm.h"
#include "formats/LogReader.h"

#include "checks/Registry.h"
#include "checks/host_sync_in_loop.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <map>

namespace torchtidy {
namespace confirm {

using nlohmann::json;

static std::unique_ptr<llvm::MemoryBuffer> readFile(const std::string &Path, std::string &Error) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  if (!B)
    Error = Path + ": " + B.getError().message();
  return B ? std::move(*B) : nullptr;
}

static bool parseJson(const std::string &Path, llvm::StringRef Text, json &J, std::string &Error) {
  J = json::parse(Text.begin(), Text.end(), nullptr, false);
  if (J.is_discarded()) {
    Error = Path + ": not valid JSON (a trace cut short?)";
    return false;
  }
  return true;
}

static bool hasDebugInfo(const std::string &Path) {
  auto Bin = llvm::object::createBinary(Path);
  if (!Bin) {
    llvm::consumeError(Bin.takeError());
    return false;
  }
  auto *Obj = llvm::dyn_cast<llvm::object::ObjectFile>(Bin->getBinary());
  if (!Obj)
    return false;
  for (const llvm::object::SectionRef &S : Obj->sections()) {
    auto Name = S.getName();
    if (Name && (*Name == ".debug_info" || *Name == ".zdebug_info"))
      return true;
    if (!Name)
      llvm::consumeError(Name.takeError());
  }
  return false;
}

static int tri(const json &E, const char *Key) {
  if (!E.contains(Key) || E[Key].is_null())
    return -1;
  return E[Key].get<bool>() ? 1 : 0;
}

bool readTrace(const std::string &Path, Trace &T, std::string &Error) {
  auto Buf = readFile(Path, Error);
  return Buf && parseTrace(Path, Buf->getBuffer(), T, Error);
}

bool parseTrace(const std::string &Path, llvm::StringRef Text, Trace &T, std::string &Error) try {
  json J;
  if (!parseJson(Path, Text, J, Error))
    return false;
  if (!J.is_object() || J.value("format", "") != "torchtidy-trace/1") {
    Error = Path + ": not a torchtidy trace (expected \"format\": \"torchtidy-trace/1\")";
    return false;
  }
  T.Path = Path;
  T.Exe = J.value("exe", "");
  T.Evidence = J.value("evidence", "cpu");
  if (J.contains("cuda"))
    T.CudaReason = J["cuda"].value("reason", "");
  if (J.contains("end")) {
    T.EndHow = J["end"].value("how", "");
    T.EndSignal = integer(J["end"], "signal", 0);
    T.EndDescription = J["end"].value("description", "");
  }
  if (J.contains("summary")) {
    T.Sites = integer(J["summary"], "sites", 0ull);
    T.Events = integer(J["summary"], "events", 0ull);
    T.Dropped = integer(J["summary"], "dropped", 0ull);
  }
  // Modules: only those with debug information are symbolized (LibTorch's
  // own libraries are large and carry none in distribution builds).
  std::map<int64_t, std::string> Modules;
  std::map<int64_t, bool> Debug;
  for (const json &M : J.value("modules", json::array())) {
    int64_t Id = integer(M, "id", int64_t(-1));
    Modules[Id] = M.value("path", "");
    Debug[Id] = hasDebugInfo(Modules[Id]);
  }
  if (!T.Exe.empty() && !hasDebugInfo(T.Exe))
    T.Notes.push_back(T.Exe + " has no debug information (build it with -g): its frames cannot be "
                              "mapped to source lines, so no finding in it can be confirmed");

  llvm::symbolize::LLVMSymbolizer::Options Opts;
  Opts.Demangle = true;
  Opts.UseSymbolTable = true;
  llvm::symbolize::LLVMSymbolizer Sym(Opts);
  std::map<std::pair<int64_t, uint64_t>, std::vector<SourceLine>> Cache;

  for (const json &E : J.value("events", json::array())) {
    TraceEvent Ev;
    Ev.Kind = E.value("kind", "");
    Ev.Op = E.value("op", "");
    Ev.Src = E.value("src", "");
    Ev.Dst = E.value("dst", "");
    Ev.Pinned = tri(E, "pinned");
    Ev.NonBlocking = tri(E, "non_blocking");
    Ev.Stale = tri(E, "stale");
    Ev.Count = integer(E, "count", 0ull);
    Ev.Blocking = integer(E, "blocking", 0ull);
    Ev.TotalNs = integer(E, "total_ns", 0ull);
    Ev.BlockedNs = integer(E, "blocked_ns", 0ull);
    for (const json &F : E.value("stack", json::array())) {
      if (!F.is_array() || F.size() != 2 || F[0].is_null())
        continue;
      int64_t Mod = integer<int64_t>(F[0]);
      uint64_t Off = integer<uint64_t>(F[1]);
      if (!Debug[Mod] || Off == 0)
        continue;
      auto Key = std::make_pair(Mod, Off);
      auto It = Cache.find(Key);
      if (It == Cache.end()) {
        std::vector<SourceLine> Lines;
        // Return addresses: look up the call instruction, one byte before.
        auto Info = Sym.symbolizeInlinedCode(Modules[Mod], {Off - 1, llvm::object::SectionedAddress::UndefSection});
        if (Info) {
          for (uint32_t I = 0; I < Info->getNumberOfFrames(); ++I) {
            const llvm::DILineInfo &L = Info->getFrame(I);
            if (L.Line == 0 || L.FileName == llvm::DILineInfo::BadString)
              continue;
            Lines.push_back({L.FileName, L.Line, L.FunctionName});
          }
        } else
          llvm::consumeError(Info.takeError());
        It = Cache.emplace(Key, std::move(Lines)).first;
      }
      Ev.Lines.insert(Ev.Lines.end(), It->second.begin(), It->second.end());
    }
    T.Events_.push_back(std::move(Ev));
  }
  return true;
} catch (const json::exception &E) {
  // A value of another type than the format's: a string for a count, an
  // event that is not an object.
  Error = Path + ": not a valid trace: " + E.what();
  return false;
}

bool readFindings(const std::string &Path, std::vector<StaticFinding> &Out, nlohmann::json &Log, bool &IsSarif,
                  std::string &Error) {
  auto Buf = readFile(Path, Error);
  return Buf && parseFindings(Path, Buf->getBuffer(), Out, Log, IsSarif, Error);
}

bool parseFindings(const std::string &Path, llvm::StringRef Text, std::vector<StaticFinding> &Out, json &Log,
                   bool &IsSarif, std::string &Error) try {
  LogText Parsed = parseSarif(Text, Log);
  if (Parsed == LogText::NotJson) {
    Error = Path + ": not valid JSON (a trace cut short?)";
    return false;
  }
  IsSarif = Parsed == LogText::Sarif;
  if (!IsSarif && !isJsonFindings(Log)) {
    Error = Path + ": neither torchtidy JSON findings (\"format\": \"torchtidy-findings/1\") nor SARIF";
    return false;
  }
  for (LoggedFinding &F : IsSarif ? sarifFindings(Log) : jsonFindings(Log))
    Out.push_back(StaticFinding{std::move(F)});
  return true;
} catch (const json::exception &E) {
  Error = Path + ": not a valid findings file: " + E.what();
  return false;
}

static std::string normalize(const std::string &P) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(P, Real))
    return Real.str().str();
  llvm::SmallString<256> Abs(P);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return Abs.str().str();
}

// A copy between two devices (traces of older shims also hold CPU-to-CPU
// copies: dtype conversions, cat, pow).
static bool isTransfer(const TraceEvent &E) { return E.Kind == "copy" && E.Src != E.Dst; }

static bool isDeviceToHost(const TraceEvent &E) { return isTransfer(E) && E.Dst == "cpu"; }

static bool isSync(const TraceEvent &E) {
  return E.Kind == "scalar-read" || isDeviceToHost(E) || E.Kind == "cuda-sync" || E.Kind == "sync-debug";
}

// The event kinds that show a signal happening; signalEvents says the same
// in words.
static bool signals(RuntimeSignal S, const TraceEvent &E) {
  switch (S) {
  case RuntimeSignal::HostSync: return isSync(E) || E.Kind == "cuda-memcpy";
  case RuntimeSignal::Transfer: return isTransfer(E) || E.Kind == "cuda-memcpy";
  case RuntimeSignal::PageableTransfer: return isTransfer(E) && E.Pinned == 0;
  case RuntimeSignal::StaleGradient: return E.Kind == "grad-accumulate" && E.Stale == 1;
  case RuntimeSignal::DataParallel: return E.Kind == "data-parallel";
  case RuntimeSignal::None: return false;
  }
  return false;
}

const char *signalEvents(RuntimeSignal S) {
  switch (S) {
  case RuntimeSignal::HostSync:
    return "`scalar-read`, `copy` from a device to the CPU, `cuda-sync`, `cuda-memcpy`, `sync-debug`";
  case RuntimeSignal::Transfer: return "`copy` between two devices, `cuda-memcpy`";
  case RuntimeSignal::PageableTransfer: return "`copy` between two devices with `pinned: false`";
  case RuntimeSignal::StaleGradient: return "`grad-accumulate` with `stale: true`";
  case RuntimeSignal::DataParallel: return "`data-parallel`";
  case RuntimeSignal::None: return "none: \"no runtime signal for this check\"";
  }
  return "";
}

RuntimeSignal signalOf(const std::string &Rule) {
  const CheckFactory *C = findCheck(Rule);
  return C ? C->Info->Signal : RuntimeSignal::None;
}

// Only a copy between devices needs a device to happen.
static bool needsDevice(RuntimeSignal S) {
  return S == RuntimeSignal::Transfer || S == RuntimeSignal::PageableTransfer;
}

void join(Trace &T, std::vector<StaticFinding> &Findings, std::vector<RuntimeOnly> &Only, unsigned Hot) {
  std::map<std::string, std::string> Norm;
  auto norm = [&](const std::string &P) -> const std::string & {
    auto It = Norm.find(P);
    if (It == Norm.end())
      It = Norm.emplace(P, normalize(P)).first;
    return It->second;
  };
  for (StaticFinding &F : Findings) {
    RuntimeSignal Signal = signalOf(F.Rule);
    if (Signal == RuntimeSignal::None) {
      F.Status = "no-runtime-signal";
      continue;
    }
    const std::string &FFile = norm(F.File);
    for (TraceEvent &E : T.Events_) {
      if (!signals(Signal, E))
        continue;
      bool Hit = false;
      for (const SourceLine &L : E.Lines) {
        bool AtFinding = L.Line == F.Line && norm(L.File) == FFile;
        bool AtNote = false;
        for (auto &N : F.NoteLines)
          if (L.Line == N.second && norm(L.File) == norm(N.first.empty() ? F.File : N.first))
            AtNote = true;
        if (AtFinding || AtNote) {
          Hit = true;
          break;
        }
      }
      if (!Hit)
        continue;
      E.Used = true;
      F.Hits += E.Count;
      F.Blocking += E.Blocking;
      F.BlockedNs += E.BlockedNs;
      F.TotalNs += E.TotalNs;
    }
    if (F.Hits)
      F.Status = "confirmed";
    else // without a device no transfer can happen: its absence proves nothing
      F.Status = needsDevice(Signal) && !T.deviceObserved() ? "not-observable" : "not-executed";
  }
  // Runtime-only: hot syncs that no finding claimed, at the innermost
  // source line known (the user's code: LibTorch has no line info).
  std::map<std::pair<std::string, unsigned>, RuntimeOnly> ByLine;
  for (const TraceEvent &E : T.Events_) {
    if (E.Used || !isSync(E) || E.Lines.empty())
      continue;
    const SourceLine &L = E.Lines.front();
    RuntimeOnly &R = ByLine[{norm(L.File), L.Line}];
    R.Rule = HostSyncInLoopCheck::Info.Id;
    R.File = norm(L.File);
    R.Line = L.Line;
    R.Op = E.Op;
    R.Hits += E.Count;
    R.Blocking += E.Blocking;
    R.BlockedNs += E.BlockedNs;
  }
  for (auto &KV : ByLine) {
    RuntimeOnly &R = KV.second;
    if (R.Hits < Hot)
      continue;
    R.Message = "runtime only: " + std::to_string(R.Hits) + " host reads (" + R.Op +
                ") ran here and no static finding covers them";
    Only.push_back(R);
  }
}

} // namespace confirm
} // namespace torchtidy
