#include "CudaLibraries.h"

#include <dlfcn.h>
#include <link.h>

namespace torchtidy::doctor {

void *Library::symbol(const char *Name) const { return Handle ? dlsym(Handle, Name) : nullptr; }

Library openLibrary(const std::string &Name) {
  Library L;
  L.Requested = Name;
  dlerror();
  L.Handle = dlopen(Name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!L.Handle) {
    const char *E = dlerror();
    L.Error = E ? E : "dlopen failed";
    return L;
  }
  struct link_map *Map = nullptr;
  if (dlinfo(L.Handle, RTLD_DI_LINKMAP, &Map) == 0 && Map && Map->l_name && *Map->l_name)
    L.Path = Map->l_name;
  else
    L.Path = Name;
  return L;
}

Library openLibrary(const char *const *Names, size_t Count) {
  Library First;
  for (size_t I = 0; I < Count; ++I) {
    Library L = openLibrary(Names[I]);
    if (L.loaded())
      return L;
    if (I == 0)
      First = L;
  }
  return First;
}

template <typename F> static bool bind(const Library &L, F &Fn, const char *Name) {
  Fn = reinterpret_cast<F>(L.symbol(Name));
  return Fn != nullptr;
}

bool Driver::load(const std::string &Name) {
  Lib = openLibrary(Name);
  if (!Lib.loaded())
    return false;
  // Required: what layer 1 needs. The versioned names are the ones cuda.h
  // maps the plain names to; older drivers lack some, so fall back.
  struct Req {
    bool Ok;
    const char *Name;
  } Reqs[] = {
      {bind(Lib, cuInit, "cuInit"), "cuInit"},
      {bind(Lib, cuDriverGetVersion, "cuDriverGetVersion"), "cuDriverGetVersion"},
      {bind(Lib, cuDeviceGetCount, "cuDeviceGetCount"), "cuDeviceGetCount"},
      {bind(Lib, cuDeviceGet, "cuDeviceGet"), "cuDeviceGet"},
      {bind(Lib, cuDeviceGetName, "cuDeviceGetName"), "cuDeviceGetName"},
      {bind(Lib, cuDeviceGetAttribute, "cuDeviceGetAttribute"), "cuDeviceGetAttribute"},
  };
  for (const Req &R : Reqs)
    if (!R.Ok) {
      Missing = R.Name;
      return false;
    }
  if (!bind(Lib, cuDeviceGetUuid, "cuDeviceGetUuid_v2"))
    bind(Lib, cuDeviceGetUuid, "cuDeviceGetUuid");
  if (!bind(Lib, cuDeviceTotalMem, "cuDeviceTotalMem_v2"))
    bind(Lib, cuDeviceTotalMem, "cuDeviceTotalMem");
  bind(Lib, cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer");
  bind(Lib, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  if (!bind(Lib, cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"))
    bind(Lib, cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease");
  bind(Lib, cuCtxSetCurrent, "cuCtxSetCurrent");
  bind(Lib, cuCtxSynchronize, "cuCtxSynchronize");
  if (!bind(Lib, cuMemGetInfo, "cuMemGetInfo_v2"))
    bind(Lib, cuMemGetInfo, "cuMemGetInfo");
  if (!bind(Lib, cuMemAlloc, "cuMemAlloc_v2"))
    bind(Lib, cuMemAlloc, "cuMemAlloc");
  if (!bind(Lib, cuMemFree, "cuMemFree_v2"))
    bind(Lib, cuMemFree, "cuMemFree");
  if (!bind(Lib, cuMemAllocHost, "cuMemAllocHost_v2"))
    bind(Lib, cuMemAllocHost, "cuMemAllocHost");
  bind(Lib, cuMemFreeHost, "cuMemFreeHost");
  if (!bind(Lib, cuMemcpyHtoD, "cuMemcpyHtoD_v2"))
    bind(Lib, cuMemcpyHtoD, "cuMemcpyHtoD");
  if (!bind(Lib, cuMemcpyDtoH, "cuMemcpyDtoH_v2"))
    bind(Lib, cuMemcpyDtoH, "cuMemcpyDtoH");
  bind(Lib, cuGetErrorName, "cuGetErrorName");
  return true;
}

static const char *knownErrorName(CUresult R) {
  switch (R) {
  case 0: return "CUDA_SUCCESS";
  case 1: return "CUDA_ERROR_INVALID_VALUE";
  case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3: return "CUDA_ERROR_NOT_INITIALIZED";
  case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case 46: return "CUDA_ERROR_DEVICE_UNAVAILABLE";
  case 100: return "CUDA_ERROR_NO_DEVICE";
  case 101: return "CUDA_ERROR_INVALID_DEVICE";
  case 209: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
  case 216: return "CUDA_ERROR_CONTEXT_ALREADY_IN_USE";
  case 304: return "CUDA_ERROR_OPERATING_SYSTEM";
  case 800: return "CUDA_ERROR_NOT_PERMITTED";
  case 801: return "CUDA_ERROR_NOT_SUPPORTED";
  case 802: return "CUDA_ERROR_SYSTEM_NOT_READY";
  case 803: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
  case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
  case 999: return "CUDA_ERROR_UNKNOWN";
  default: return nullptr;
  }
}

std::string Driver::errorName(CUresult R) const {
  const char *Name = nullptr;
  if (cuGetErrorName && cuGetErrorName(R, &Name) != 0)
    Name = nullptr;
  if (!Name)
    Name = knownErrorName(R);
  std::string S = Name ? Name : "CUDA error";
  return S + " (" + std::to_string(R) + ")";
}

bool Runtime::load(const std::string &Name) {
  static const char *const Names[] = {"libcudart.so",    "libcudart.so.13", "libcudart.so.12",
                                      "libcudart.so.11.0", "libcudart.so.10.2"};
  Lib = Name.empty() ? openLibrary(Names, sizeof(Names) / sizeof(Names[0])) : openLibrary(Name);
  return Lib.loaded() && bind(Lib, cudaRuntimeGetVersion, "cudaRuntimeGetVersion");
}

void Nvml::load() {
  static const char *const Names[] = {"libnvidia-ml.so.1", "libnvidia-ml.so"};
  Lib = openLibrary(Names, 2);
  if (!Lib.loaded()) {
    Error = Lib.Error;
    return;
  }
  int (*Init)() = nullptr;
  int (*Version)(char *, unsigned) = nullptr;
  int (*Shutdown)() = nullptr;
  if (!bind(Lib, Init, "nvmlInit_v2"))
    bind(Lib, Init, "nvmlInit");
  bind(Lib, Version, "nvmlSystemGetDriverVersion");
  bind(Lib, Shutdown, "nvmlShutdown");
  if (!Init || !Version) {
    Error = "NVML lacks nvmlInit/nvmlSystemGetDriverVersion";
    return;
  }
  int R = Init();
  if (R != 0) {
    Error = "nvmlInit failed (" + std::to_string(R) + ")";
    return;
  }
  char Buf[96] = {0};
  if (Version(Buf, sizeof(Buf)) == 0)
    DriverRelease = Buf;
  if (Shutdown)
    Shutdown();
}

std::string cudaVersionString(int V) {
  return std::to_string(V / 1000) + "." + std::to_string((V % 1000) / 10);
}

std::string cudnnVersionString(long V) {
  long Major = V >= 10000 ? V / 10000 : V / 1000, Minor = V >= 10000 ? (V / 100) % 100 : (V / 100) % 10;
  return std::to_string(Major) + "." + std::to_string(Minor);
}

} // namespace torchtidy::doctor
