// libtorchtidy_rt.so: the runtime shim. Loaded with LD_PRELOAD (or linked),
// it registers a LibTorch RecordFunction observer for the ops that the
// static checks are about, aggregates the events by call site (kind,
// attributes, raw return addresses) and writes the trace, a versioned JSON
// file (docs/trace.md), atomically when the process ends. No LLVM here: the
// analyzer symbolizes the (module, offset) pairs later.
#include "Ops.h"
#include "trace/TraceFormat.h"

#include <ATen/record_function.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>

namespace torchtidy_rt {

using namespace torchtidy_trace;

using Clock = std::chrono::steady_clock;

static Recorder *TheRecorder = nullptr;

Recorder &recorder() { return *TheRecorder; }

namespace {

// Per-thread nesting, so aten::to -> aten::_to_copy -> aten::copy_ and
// aten::item -> aten::_local_scalar_dense count once, at the outermost op.
thread_local int CopyDepth = 0;
thread_local int ScalarDepth = 0;
thread_local int AccumulateDepth = 0;

struct Context : at::ObserverContext {
  OpClass Class = OpClass::None;
  Clock::time_point Start;
  EventAttrs Attrs;
  Stack Frames;
};

// An observed op's context: its event, with the stack, and the start time
// taken last so that capturing the stack is not timed.
std::unique_ptr<Context> observe(OpClass C, const char *Kind, const char *Name, EventAttrs Attrs = {}) {
  auto Ctx = std::make_unique<Context>();
  Ctx->Class = C;
  Ctx->Attrs = std::move(Attrs);
  Ctx->Attrs.Kind = Kind;
  Ctx->Attrs.Op = Name;
  captureStack(Ctx->Frames);
  Ctx->Start = Clock::now();
  return Ctx;
}

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction &Fn) {
  const char *Name = Fn.name();
  if (!Name)
    return nullptr;
  OpClass C = classify(Name);
  if (C == OpClass::None)
    return nullptr;
  c10::ArrayRef<const c10::IValue> In = Fn.inputs();
  switch (C) {
  case OpClass::To:
  case OpClass::ToCopy:
  case OpClass::Copy: {
    // Counted at the outermost op, and only when it moves data between
    // devices; AccumulateGrad's own copies are not the user's.
    if (CopyDepth++ > 0 || AccumulateDepth > 0)
      break;
    EventAttrs Attrs;
    if (!readTransfer(C, In, Attrs))
      break;
    return observe(C, kind::Copy, Name, std::move(Attrs));
  }
  case OpClass::Item:
  case OpClass::LocalScalar: {
    if (ScalarDepth++ > 0)
      break;
    EventAttrs Attrs;
    if (!In.empty() && In[0].isTensor() && In[0].toTensor().defined()) {
      c10::Device D = In[0].toTensor().device();
      Attrs.Src = deviceName(D);
      Attrs.Dst = "cpu";
      Attrs.Blocking = !D.is_cpu();
    }
    return observe(C, kind::ScalarRead, Name, std::move(Attrs));
  }
  case OpClass::Zero:
    if (!In.empty() && In[0].isTensor() && In[0].toTensor().defined())
      recorder().noteCleared(In[0].toTensor().unsafeGetTensorImpl());
    break;
  case OpClass::Accumulate: {
    ++AccumulateDepth;
    auto Ctx = std::make_unique<Context>();
    Ctx->Class = C;
    return Ctx; // a scope marker: ended in onEnd
  }
  case OpClass::AddInPlace: {
    if (AccumulateDepth == 0 || In.empty() || !In[0].isTensor() || !In[0].toTensor().defined())
      break;
    // AccumulateGrad adding into an already defined gradient.
    EventAttrs Attrs;
    Attrs.Src = deviceName(In[0].toTensor().device());
    Attrs.Stale = recorder().takeCleared(In[0].toTensor().unsafeGetTensorImpl()) ? 0 : 1;
    return observe(C, kind::GradAccumulate, Name, std::move(Attrs));
  }
  case OpClass::DataParallel:
    return observe(C, kind::DataParallel, Name);
  case OpClass::None:
    break;
  }
  return nullptr;
}

// Leaves the nesting of a copy or a scalar read.
void leave(OpClass C) {
  switch (C) {
  case OpClass::To:
  case OpClass::ToCopy:
  case OpClass::Copy:
    if (CopyDepth > 0)
      --CopyDepth;
    break;
  case OpClass::Item:
  case OpClass::LocalScalar:
    if (ScalarDepth > 0)
      --ScalarDepth;
    break;
  default:
    break;
  }
}

void onEnd(const at::RecordFunction &Fn, at::ObserverContext *Raw) {
  if (!Raw) {
    // Nested copies and scalar reads still unwind their depth; with both
    // depths at zero no op without a context can be one of them.
    if (CopyDepth == 0 && ScalarDepth == 0)
      return;
    if (const char *Name = Fn.name())
      leave(classify(Name));
    return;
  }
  auto *Ctx = static_cast<Context *>(Raw);
  if (Ctx->Class == OpClass::Accumulate) {
    if (AccumulateDepth > 0)
      --AccumulateDepth;
    return;
  }
  leave(Ctx->Class);
  uint64_t Ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - Ctx->Start).count();
  recorder().record(Ctx->Attrs, Ctx->Frames, Ns);
}

// Sync-debug mode (CUDA builds): c10's "called a synchronizing CUDA
// operation" warnings become events; other warnings go to the old handler.
struct SyncDebugHandler : c10::WarningHandler {
  c10::WarningHandler *Previous = nullptr;
  void process(const c10::SourceLocation &Loc, const std::string &Msg, const bool Verbatim) override {
    if (Msg.find("synchronizing CUDA operation") != std::string::npos) {
      EventAttrs A;
      A.Kind = kind::SyncDebug;
      A.Op = Msg.substr(0, 120);
      A.Blocking = true;
      Stack S;
      captureStack(S);
      recorder().record(A, S, 0);
      return;
    }
    if (Previous)
      Previous->process(Loc, Msg, Verbatim);
  }
};

void enableSyncDebug(CudaState &Cuda) {
  // c10::cuda::warning_state() is inline in LibTorch 1.13 (its static
  // instance is exported), a function from 2.x on: accept either.
  void *Lib = dlopen("libc10_cuda.so", RTLD_NOW | RTLD_NOLOAD);
  if (!Lib) {
    Cuda.SyncDebug = "not enabled: libc10_cuda.so is not loaded";
    return;
  }
  int *Mode = nullptr;
  if (void *F = dlsym(Lib, "_ZN3c104cuda13warning_stateEv"))
    Mode = reinterpret_cast<int *>(reinterpret_cast<void *(*)()>(F)());
  else if (void *V = dlsym(Lib, "_ZZN3c104cuda13warning_stateEvE14warning_state_"))
    Mode = static_cast<int *>(V);
  if (!Mode) {
    Cuda.SyncDebug = "not enabled: c10::cuda::warning_state not found in libc10_cuda.so";
    return;
  }
  static SyncDebugHandler Handler;
  Handler.Previous = c10::Warning::get_warning_handler();
  c10::Warning::set_warning_handler(&Handler);
  if (*Mode == 0)
    *Mode = 1; // SyncDebugMode::L_WARN
  Cuda.SyncDebug = "enabled (warn)";
}

void onExit() { recorder().write(EndExit, 0); }

void onSignal(int Sig) {
  // Best effort: the process is going down anyway. Write what we have,
  // then die of the same signal.
  static volatile sig_atomic_t Once = 0;
  if (!Once) {
    Once = 1;
    recorder().write(EndSignal, Sig);
  }
  std::signal(Sig, SIG_DFL);
  std::raise(Sig);
}

} // namespace

__attribute__((constructor)) static void init() {
  const char *Disabled = std::getenv("TORCHTIDY_DISABLE");
  if (Disabled && *Disabled && std::strcmp(Disabled, "0") != 0)
    return;
  TheRecorder = new Recorder(); // never destroyed: other threads may still record at exit
  Recorder &R = *TheRecorder;
  R.TorchVersion = TORCH_VERSION;
  {
    void *Warm[4];
    backtrace(Warm, 4); // loads libgcc_s now, not inside the first observed op
  }
  at::addGlobalCallback(at::RecordFunctionCallback(onStart, onEnd)
                            .needsInputs(true)
                            .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION}));
  detectCuda(R.Cuda);
  if (R.Cuda.Observed) {
    const char *SD = std::getenv("TORCHTIDY_SYNC_DEBUG");
    if (!SD || std::strcmp(SD, "0") != 0)
      enableSyncDebug(R.Cuda);
  }
  std::atexit(onExit);
  const char *NoSig = std::getenv("TORCHTIDY_NO_SIGNALS");
  if (!NoSig || !*NoSig)
    for (int Sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT}) {
      struct sigaction Old;
      sigaction(Sig, nullptr, &Old);
      if (Old.sa_handler == SIG_DFL) // never replace the program's own handler
        std::signal(Sig, onSignal);
    }
}

} // namespace torchtidy_rt
