// torchtidy-trace/1 (docs/trace.md): its event kinds and field names,
// spelled once for the shim that writes it (runtime/shim) and confirm that
// reads it (analyzer/confirm). Plain C++, so that both may include it: the
// shim links LibTorch and never LLVM, confirm the reverse.
#pragma once

namespace torchtidy_trace {

inline constexpr char Format[] = "torchtidy-trace/1";

// What an event records.
namespace kind {
inline constexpr char Copy[] = "copy";                      // a tensor copy: src, dst, pinned, non_blocking
inline constexpr char ScalarRead[] = "scalar-read";         // a device value read on the host (item())
inline constexpr char GradAccumulate[] = "grad-accumulate"; // stale: into a gradient not cleared since
inline constexpr char DataParallel[] = "data-parallel";     // data_parallel / replicate / parallel_apply
inline constexpr char CudaSync[] = "cuda-sync";             // a CUDA synchronisation call
inline constexpr char CudaMemcpy[] = "cuda-memcpy";         // a CUDA memcpy call
inline constexpr char SyncDebug[] = "sync-debug";           // a sync reported by CUDA's sync-debug mode
} // namespace kind

// The trace's fields: the top level, "end", "cuda", "libtorch", "summary",
// the modules and the events.
namespace field {
inline constexpr char Format[] = "format";
inline constexpr char Producer[] = "producer";
inline constexpr char Pid[] = "pid";
inline constexpr char Exe[] = "exe";
inline constexpr char Argv[] = "argv";
inline constexpr char End[] = "end";
inline constexpr char How[] = "how"; // "exit" or "signal"
inline constexpr char Signal[] = "signal";
inline constexpr char Description[] = "description";
inline constexpr char WallNs[] = "wall_ns";
inline constexpr char Libtorch[] = "libtorch";
inline constexpr char Version[] = "version";
inline constexpr char Cuda[] = "cuda";
inline constexpr char Observed[] = "observed";
inline constexpr char Reason[] = "reason";
inline constexpr char Devices[] = "devices";
inline constexpr char Driver[] = "driver";
inline constexpr char Cupti[] = "cupti";
inline constexpr char SyncDebug[] = "sync_debug";
inline constexpr char Evidence[] = "evidence"; // "device" or "cpu"
inline constexpr char Modules[] = "modules";
inline constexpr char Id[] = "id";
inline constexpr char Path[] = "path";
inline constexpr char Events[] = "events";
inline constexpr char Kind[] = "kind";
inline constexpr char Op[] = "op";
inline constexpr char Src[] = "src";
inline constexpr char Dst[] = "dst";
inline constexpr char Pinned[] = "pinned";
inline constexpr char NonBlocking[] = "non_blocking";
inline constexpr char Stale[] = "stale";
inline constexpr char Count[] = "count";
inline constexpr char Blocking[] = "blocking";
inline constexpr char TotalNs[] = "total_ns";
inline constexpr char MaxNs[] = "max_ns";
inline constexpr char BlockedNs[] = "blocked_ns";
inline constexpr char Stack[] = "stack"; // [module id or null, offset or address] per frame
inline constexpr char Summary[] = "summary";
inline constexpr char Sites[] = "sites";
inline constexpr char Dropped[] = "dropped"; // call sites past the shim's limit
} // namespace field

inline constexpr char DeviceEvidence[] = "device";
inline constexpr char CpuEvidence[] = "cpu";
inline constexpr char EndExit[] = "exit";
inline constexpr char EndSignal[] = "signal";

} // namespace torchtidy_trace
