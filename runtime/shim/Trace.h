// The shim's event store: events aggregated by call site, written as the
// torchtidy-trace/1 JSON file (docs/trace.md). Thread-safe.
#pragma once

#include "Stack.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace torchtidy_rt {

constexpr size_t kMaxSites = 20000; // distinct call sites kept; more are counted as dropped
constexpr size_t kMaxCleared = 8192;

struct EventAttrs {
  std::string Kind; // torchtidy_trace::kind (trace/TraceFormat.h)
  std::string Op;   // aten::to, cudaStreamSynchronize, ...
  std::string Src, Dst;
  int Pinned = -1;      // -1 unknown / not applicable
  int NonBlocking = -1; // -1 not applicable
  int Stale = -1;       // grad-accumulate: 1 when no zero_ ran on the gradient since its last accumulation
  bool Blocking = false;
};

struct CudaState {
  bool Observed = false;
  std::string Reason;    // why CUDA is not observed, or what observes it
  std::string Driver;    // libcuda.so.1 status
  std::string Cupti;     // CUPTI status
  std::string SyncDebug; // sync-debug-mode status
  int Devices = 0;
};

struct Site {
  EventAttrs Attrs;
  Stack Frames;
  uint64_t Count = 0, Blocking = 0, TotalNs = 0, MaxNs = 0, BlockedNs = 0;
};

class Recorder {
public:
  void record(const EventAttrs &A, const Stack &S, uint64_t Ns);
  void noteCleared(const void *Impl);
  bool takeCleared(const void *Impl);
  // How: "exit" or "signal" (Code: the signal). Atomic: temp file + rename.
  void write(const char *How, int Code);

  std::string TorchVersion;
  CudaState Cuda;

private:
  std::mutex M;
  std::unordered_map<std::string, Site> Sites;
  std::unordered_set<const void *> Cleared;
  uint64_t Dropped = 0;
  bool Written = false;
};

Recorder &recorder();
void detectCuda(CudaState &C);

} // namespace torchtidy_rt
