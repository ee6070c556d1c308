// CUDA observation, all loaded at run time: libtorch_cuda (is this a CUDA
// build of LibTorch?), libcuda.so.1 (driver, devices), CUPTI (callbacks on
// the runtime and driver API's memcpy and synchronize calls). On a machine
// without any of them the trace says which one is missing and why.
#include "Trace.h"
#include "trace/TraceFormat.h"

#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <execinfo.h>

#ifdef TORCHTIDY_HAVE_CUPTI
#include <cupti.h>
#endif

namespace torchtidy_rt {

using namespace torchtidy_trace;

namespace {

std::string dlError() {
  const char *E = dlerror();
  return E ? E : "unknown error";
}

#ifdef TORCHTIDY_HAVE_CUPTI
thread_local std::chrono::steady_clock::time_point ApiStart;

void CUPTIAPI onApi(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Id, const void *Data) {
  const auto *Info = static_cast<const CUpti_CallbackData *>(Data);
  if (Info->callbackSite == CUPTI_API_ENTER) {
    ApiStart = std::chrono::steady_clock::now();
    return;
  }
  uint64_t Ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - ApiStart)
                    .count();
  EventAttrs A;
  A.Op = Info->functionName ? Info->functionName : "?";
  A.Kind = std::strstr(A.Op.c_str(), "emcpy") ? kind::CudaMemcpy : kind::CudaSync;
  A.Blocking = A.Kind == kind::CudaSync || A.Op.find("Async") == std::string::npos;
  (void)Domain;
  (void)Id;
  Stack S;
  void *Buf[kMaxFrames + 4];
  int N = backtrace(Buf, kMaxFrames + 4);
  for (int I = 3; I < N && S.N < kMaxFrames; ++I) // drop this callback and CUPTI's own frames
    S.Frames[S.N++] = reinterpret_cast<uintptr_t>(Buf[I]);
  recorder().record(A, S, Ns);
}

void enableCupti(CudaState &C) {
  const char *Names[] = {"libcupti.so", "libcupti.so.13", "libcupti.so.12", "libcupti.so.11.8",
                         "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so", "/usr/local/cuda/lib64/libcupti.so"};
  void *Lib = nullptr;
  std::string Err;
  for (const char *N : Names)
    if ((Lib = dlopen(N, RTLD_NOW | RTLD_LOCAL)))
      break;
    else
      Err = dlError();
  if (!Lib) {
    C.Cupti = "not loaded: " + Err;
    return;
  }
  using SubscribeFn = CUptiResult (*)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
  using EnableFn = CUptiResult (*)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId);
  auto Subscribe = reinterpret_cast<SubscribeFn>(dlsym(Lib, "cuptiSubscribe"));
  auto Enable = reinterpret_cast<EnableFn>(dlsym(Lib, "cuptiEnableCallback"));
  if (!Subscribe || !Enable) {
    C.Cupti = "libcupti lacks cuptiSubscribe/cuptiEnableCallback";
    return;
  }
  CUpti_SubscriberHandle Sub;
  CUptiResult R = Subscribe(&Sub, onApi, nullptr);
  if (R != CUPTI_SUCCESS) {
    C.Cupti = "cuptiSubscribe failed with " + std::to_string(int(R)) + " (another profiler subscribed?)";
    return;
  }
  const CUpti_CallbackId Runtime[] = {
      CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,          CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020};
  for (CUpti_CallbackId Id : Runtime)
    Enable(1, Sub, CUPTI_CB_DOMAIN_RUNTIME_API, Id);
  const CUpti_CallbackId Driver[] = {CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
                                     CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize,
                                     CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize};
  for (CUpti_CallbackId Id : Driver)
    Enable(1, Sub, CUPTI_CB_DOMAIN_DRIVER_API, Id);
  C.Cupti = "subscribed: runtime memcpy/synchronize, driver synchronize";
}
#endif

} // namespace

void detectCuda(CudaState &C) {
  void *TorchCuda = dlopen("libtorch_cuda.so", RTLD_NOW | RTLD_NOLOAD);
  if (!TorchCuda) {
    C.Reason = "LibTorch in this process is a CPU build (libtorch_cuda.so is not loaded): "
               "events show that code ran and how often, not device stalls";
    return;
  }
  void *Driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Driver) {
    C.Driver = "not loaded: " + dlError();
    C.Reason = "no CUDA driver: " + C.Driver;
    return;
  }
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int *);
  auto Init = reinterpret_cast<InitFn>(dlsym(Driver, "cuInit"));
  auto Count = reinterpret_cast<CountFn>(dlsym(Driver, "cuDeviceGetCount"));
  if (!Init || !Count) {
    C.Reason = "libcuda.so.1 lacks cuInit/cuDeviceGetCount";
    return;
  }
  int R = Init(0);
  if (R != 0) {
    C.Driver = "cuInit failed with CUresult " + std::to_string(R);
    C.Reason = "the CUDA driver does not initialise (" + C.Driver + "; run torchtidy doctor)";
    return;
  }
  int N = 0;
  Count(&N);
  C.Devices = N;
  C.Driver = "loaded, " + std::to_string(N) + " device(s)";
  if (N == 0) {
    C.Reason = "no CUDA device";
    return;
  }
#ifdef TORCHTIDY_HAVE_CUPTI
  enableCupti(C);
  C.Observed = true;
  C.Reason = "CUDA build with " + std::to_string(N) + " device(s); CUPTI " + C.Cupti;
#else
  C.Observed = true;
  C.Reason = "CUDA build with a device, but this shim was built without CUPTI headers: "
             "pinned-ness and sync-debug only";
#endif
}

} // namespace torchtidy_rt
