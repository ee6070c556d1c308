#include "confirm/Confirm.h"
#include "formats/LogReader.h"

#include "checks/Registry.h"
#include "checks/host_sync_in_loop.h"
#include "trace/TraceFormat.h"

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
using namespace torchtidy_trace;

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
  if (!J.is_object() || J.value(field::Format, "") != Format) {
    Error = Path + ": not a torchtidy trace (expected \"format\": \"torchtidy-trace/1\")";
    return false;
  }
  T.Path = Path;
  T.Exe = J.value(field::Exe, "");
  T.Evidence = J.value(field::Evidence, CpuEvidence);
  if (J.contains(field::Cuda))
    T.CudaReason = J[field::Cuda].value(field::Reason, "");
  if (J.contains(field::End)) {
    T.EndHow = J[field::End].value(field::How, "");
    T.EndSignal = integer(J[field::End], field::Signal, 0);
    T.EndDescription = J[field::End].value(field::Description, "");
  }
  if (J.contains(field::Summary)) {
    T.Sites = integer(J[field::Summary], field::Sites, 0ull);
    T.Events = integer(J[field::Summary], field::Events, 0ull);
    T.Dropped = integer(J[field::Summary], field::Dropped, 0ull);
  }
  // Modules: only those with debug information are symbolized (LibTorch's
  // own libraries are large and carry none in distribution builds).
  std::map<int64_t, std::string> Modules;
  std::map<int64_t, bool> Debug;
  for (const json &M : J.value(field::Modules, json::array())) {
    int64_t Id = integer(M, field::Id, int64_t(-1));
    Modules[Id] = M.value(field::Path, "");
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

  for (const json &E : J.value(field::Events, json::array())) {
    TraceEvent Ev;
    Ev.Kind = E.value(field::Kind, "");
    Ev.Op = E.value(field::Op, "");
    Ev.Src = E.value(field::Src, "");
    Ev.Dst = E.value(field::Dst, "");
    Ev.Pinned = tri(E, field::Pinned);
    Ev.NonBlocking = tri(E, field::NonBlocking);
    Ev.Stale = tri(E, field::Stale);
    Ev.Count = integer(E, field::Count, 0ull);
    Ev.Blocking = integer(E, field::Blocking, 0ull);
    Ev.TotalNs = integer(E, field::TotalNs, 0ull);
    Ev.BlockedNs = integer(E, field::BlockedNs, 0ull);
    for (const json &F : E.value(field::Stack, json::array())) {
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
static bool isTransfer(const TraceEvent &E) { return E.Kind == kind::Copy && E.Src != E.Dst; }

static bool isDeviceToHost(const TraceEvent &E) { return isTransfer(E) && E.Dst == "cpu"; }

static bool isSync(const TraceEvent &E) {
  return E.Kind == kind::ScalarRead || isDeviceToHost(E) || E.Kind == kind::CudaSync ||
         E.Kind == kind::SyncDebug;
}

// The event kinds that show a signal happening; signalEvents says the same
// in words.
static bool signals(RuntimeSignal S, const TraceEvent &E) {
  switch (S) {
  case RuntimeSignal::HostSync: return isSync(E) || E.Kind == kind::CudaMemcpy;
  case RuntimeSignal::Transfer: return isTransfer(E) || E.Kind == kind::CudaMemcpy;
  case RuntimeSignal::PageableTransfer: return isTransfer(E) && E.Pinned == 0;
  case RuntimeSignal::StaleGradient: return E.Kind == kind::GradAccumulate && E.Stale == 1;
  case RuntimeSignal::DataParallel: return E.Kind == kind::DataParallel;
  case RuntimeSignal::None: return false;
  }
  return false;
}

static std::string code(const char *Kind) { return std::string("`") + Kind + "`"; }

std::string signalEvents(RuntimeSignal S) {
  const std::string Copy = code(kind::Copy) + " between two devices";
  switch (S) {
  case RuntimeSignal::HostSync:
    return code(kind::ScalarRead) + ", " + code(kind::Copy) + " from a device to the CPU, " + code(kind::CudaSync) +
           ", " + code(kind::CudaMemcpy) + ", " + code(kind::SyncDebug);
  case RuntimeSignal::Transfer: return Copy + ", " + code(kind::CudaMemcpy);
  case RuntimeSignal::PageableTransfer: return Copy + " with `" + field::Pinned + ": false`";
  case RuntimeSignal::StaleGradient: return code(kind::GradAccumulate) + " with `" + field::Stale + ": true`";
  case RuntimeSignal::DataParallel: return code(kind::DataParallel);
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
