#include "Trace.h"
#include "trace/TraceFormat.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <link.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace torchtidy_rt {

using namespace torchtidy_trace;

static const auto ProcessStart = std::chrono::steady_clock::now();

void Recorder::record(const EventAttrs &A, const Stack &S, uint64_t Ns) {
  std::string Key;
  Key.reserve(64 + S.N * sizeof(uintptr_t));
  Key += A.Kind;
  Key += '\0';
  Key += A.Op;
  Key += '\0';
  Key += A.Src;
  Key += '\0';
  Key += A.Dst;
  Key += char('0' + A.Pinned + 1);
  Key += char('0' + A.NonBlocking + 1);
  Key += char('0' + A.Stale + 1);
  Key += char('0' + A.Blocking);
  Key.append(reinterpret_cast<const char *>(S.Frames), S.N * sizeof(uintptr_t));
  std::lock_guard<std::mutex> L(M);
  auto It = Sites.find(Key);
  if (It == Sites.end()) {
    if (Sites.size() >= kMaxSites) {
      ++Dropped;
      return;
    }
    It = Sites.emplace(std::move(Key), Site()).first;
    It->second.Attrs = A;
    It->second.Frames = S;
  }
  Site &St = It->second;
  ++St.Count;
  St.TotalNs += Ns;
  St.MaxNs = std::max(St.MaxNs, Ns);
  if (A.Blocking) {
    ++St.Blocking;
    St.BlockedNs += Ns;
  }
}

void Recorder::noteCleared(const void *Impl) {
  std::lock_guard<std::mutex> L(M);
  if (Cleared.size() >= kMaxCleared)
    Cleared.clear();
  Cleared.insert(Impl);
}

bool Recorder::takeCleared(const void *Impl) {
  std::lock_guard<std::mutex> L(M);
  return Cleared.erase(Impl) != 0;
}

namespace {

struct Module {
  std::string Path;
  uintptr_t Base = 0;
  std::vector<std::pair<uintptr_t, uintptr_t>> Ranges; // executable PT_LOAD segments
};

std::string selfExe() {
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  return N > 0 ? std::string(Buf, N) : std::string();
}

int collect(struct dl_phdr_info *Info, size_t, void *Data) {
  auto *Mods = static_cast<std::vector<Module> *>(Data);
  Module M;
  M.Path = Info->dlpi_name && *Info->dlpi_name ? Info->dlpi_name : "";
  if (M.Path.empty()) {
    if (!Mods->empty())
      return 0; // the vdso and other nameless objects after the executable
    M.Path = selfExe();
  }
  M.Base = Info->dlpi_addr;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type == PT_LOAD && (P.p_flags & PF_X))
      M.Ranges.push_back({Info->dlpi_addr + P.p_vaddr, Info->dlpi_addr + P.p_vaddr + P.p_memsz});
  }
  Mods->push_back(std::move(M));
  return 0;
}

std::vector<std::string> commandLine() {
  std::vector<std::string> Args;
  FILE *F = std::fopen("/proc/self/cmdline", "rb");
  if (!F)
    return Args;
  std::string Cur;
  int C;
  while ((C = std::fgetc(F)) != EOF) {
    if (C == 0) {
      Args.push_back(Cur);
      Cur.clear();
    } else
      Cur += char(C);
  }
  std::fclose(F);
  return Args;
}

nlohmann::json nullable(int V) { return V < 0 ? nlohmann::json(nullptr) : nlohmann::json(V == 1); }

std::string tracePath() {
  const char *P = std::getenv("TORCHTIDY_TRACE");
  if (P && *P)
    return P;
  return "torchtidy-trace." + std::to_string(getpid()) + ".json";
}

bool writeAtomically(const std::string &Path, const std::string &Text, std::string &Error) {
  std::string Tmp = Path + ".tmp." + std::to_string(getpid());
  int Fd = open(Tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (Fd < 0) {
    Error = "cannot create " + Tmp + ": " + std::strerror(errno);
    return false;
  }
  size_t Done = 0;
  while (Done < Text.size()) {
    ssize_t N = ::write(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      Error = "cannot write " + Tmp + ": " + std::strerror(errno);
      close(Fd);
      unlink(Tmp.c_str());
      return false;
    }
    Done += N;
  }
  fsync(Fd);
  close(Fd);
  if (rename(Tmp.c_str(), Path.c_str()) != 0) {
    Error = "cannot rename " + Tmp + " to " + Path + ": " + std::strerror(errno);
    unlink(Tmp.c_str());
    return false;
  }
  return true;
}

} // namespace

void Recorder::write(const char *How, int Code) {
  // A signal may arrive while this thread holds the lock: wait briefly,
  // then write without it (best effort, the process is dying).
  bool Locked = false;
  for (int I = 0; I < 200 && !(Locked = M.try_lock()); ++I)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (Written) {
    if (Locked)
      M.unlock();
    return;
  }
  Written = true;

  std::vector<Module> Mods;
  dl_iterate_phdr(collect, &Mods);
  std::vector<int> Used(Mods.size(), -1);
  nlohmann::json Modules = nlohmann::json::array();
  auto moduleOf = [&](uintptr_t A, uintptr_t &Offset) -> int {
    for (size_t I = 0; I < Mods.size(); ++I)
      for (auto &R : Mods[I].Ranges)
        if (A >= R.first && A < R.second) {
          Offset = A - Mods[I].Base;
          if (Used[I] < 0) {
            Used[I] = int(Modules.size());
            Modules.push_back({{field::Id, Used[I]}, {field::Path, Mods[I].Path}});
          }
          return Used[I];
        }
    return -1;
  };

  nlohmann::json Events = nlohmann::json::array();
  std::vector<const Site *> Order;
  for (auto &KV : Sites)
    Order.push_back(&KV.second);
  std::sort(Order.begin(), Order.end(), [](const Site *A, const Site *B) {
    if (A->Attrs.Kind != B->Attrs.Kind)
      return A->Attrs.Kind < B->Attrs.Kind;
    return A->Count > B->Count;
  });
  uint64_t Total = 0;
  for (const Site *S : Order) {
    nlohmann::json E;
    E[field::Kind] = S->Attrs.Kind;
    E[field::Op] = S->Attrs.Op;
    if (!S->Attrs.Src.empty())
      E[field::Src] = S->Attrs.Src;
    if (!S->Attrs.Dst.empty())
      E[field::Dst] = S->Attrs.Dst;
    E[field::Pinned] = nullable(S->Attrs.Pinned);
    E[field::NonBlocking] = nullable(S->Attrs.NonBlocking);
    if (S->Attrs.Stale >= 0)
      E[field::Stale] = S->Attrs.Stale == 1;
    E[field::Count] = S->Count;
    E[field::Blocking] = S->Blocking;
    E[field::TotalNs] = S->TotalNs;
    E[field::MaxNs] = S->MaxNs;
    E[field::BlockedNs] = S->BlockedNs;
    nlohmann::json Frames = nlohmann::json::array();
    for (int I = 0; I < S->Frames.N; ++I) {
      uintptr_t Off = 0;
      int Mod = moduleOf(S->Frames.Frames[I], Off);
      if (Mod < 0)
        Frames.push_back({nullptr, S->Frames.Frames[I]});
      else
        Frames.push_back({Mod, Off});
    }
    E[field::Stack] = Frames;
    Total += S->Count;
    Events.push_back(std::move(E));
  }

  nlohmann::json T;
  T[field::Format] = Format;
  T[field::Producer] = "libtorchtidy_rt";
  T[field::Pid] = getpid();
  T[field::Exe] = selfExe();
  T[field::Argv] = commandLine();
  nlohmann::json End = {{field::How, How}};
  if (std::strcmp(How, EndSignal) == 0) {
    End[field::Signal] = Code;
    const char *D = strsignal(Code);
    End[field::Description] = D ? D : "";
  }
  T[field::End] = End;
  T[field::WallNs] = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                                      ProcessStart)
                     .count();
  T[field::Libtorch] = {{field::Version, TorchVersion}};
  nlohmann::json Cu = {
      {field::Observed, Cuda.Observed}, {field::Reason, Cuda.Reason}, {field::Devices, Cuda.Devices}};
  if (!Cuda.Driver.empty())
    Cu[field::Driver] = Cuda.Driver;
  if (!Cuda.Cupti.empty())
    Cu[field::Cupti] = Cuda.Cupti;
  if (!Cuda.SyncDebug.empty())
    Cu[field::SyncDebug] = Cuda.SyncDebug;
  T[field::Cuda] = Cu;
  T[field::Evidence] = Cuda.Observed ? DeviceEvidence : CpuEvidence;
  T[field::Modules] = Modules;
  T[field::Events] = std::move(Events);
  T[field::Summary] = {{field::Sites, Sites.size()}, {field::Events, Total}, {field::Dropped, Dropped}};
  if (Locked)
    M.unlock();

  std::string Path = tracePath(), Error;
  // A process that observed nothing (a shell or a launcher that inherited
  // LD_PRELOAD) does not replace the trace of the program it started.
  if (Total == 0 && access(Path.c_str(), F_OK) == 0)
    return;
  if (!writeAtomically(Path, T.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", Error))
    std::fprintf(stderr, "torchtidy-rt: error: %s\n", Error.c_str());
}

} // namespace torchtidy_rt
