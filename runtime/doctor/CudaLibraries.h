// The CUDA driver, the CUDA runtime and NVML, loaded with dlopen at run time
// so the doctor builds without them and runs on a machine that lacks them.
// Only the handful of entry points the doctor calls are declared, with the
// C ABI of cuda.h / cuda_runtime_api.h / nvml.h (all int-sized enums).
#pragma once

#include <cstddef>
#include <string>

namespace torchtidy::doctor {

using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUdeviceptr = unsigned long long;
struct CUuuid {
  char Bytes[16];
};

enum : int {
  CU_DEVICE_ATTRIBUTE_COMPUTE_MODE = 20,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};
enum : int {
  CU_COMPUTEMODE_DEFAULT = 0,
  CU_COMPUTEMODE_EXCLUSIVE_THREAD = 1, // before CUDA 8
  CU_COMPUTEMODE_PROHIBITED = 2,
  CU_COMPUTEMODE_EXCLUSIVE_PROCESS = 3,
};

// A loaded library: its handle, the path the loader resolved, or why not.
struct Library {
  void *Handle = nullptr;
  std::string Requested; // what was passed to dlopen
  std::string Path;      // the file the loader opened
  std::string Error;     // dlerror() when it did not load
  bool loaded() const { return Handle != nullptr; }
  void *symbol(const char *Name) const;
};

// Opens the first of Names that loads (each is passed to dlopen as is).
Library openLibrary(const char *const *Names, size_t Count);
Library openLibrary(const std::string &Name);

// The driver API (libcuda.so.1), or a double of it named by --driver-library.
struct Driver {
  Library Lib;
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDriverGetVersion)(int *) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetUuid)(CUuuid *, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice) = nullptr;
  CUresult (*cuDeviceCanAccessPeer)(int *, CUdevice, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuMemGetInfo)(size_t *, size_t *) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemAllocHost)(void **, size_t) = nullptr;
  CUresult (*cuMemFreeHost)(void *) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char **) = nullptr;
  std::string Missing; // the first required entry point the library lacks

  bool load(const std::string &Name);
  // "CUDA_ERROR_NO_DEVICE (100)": the driver's own name where it has one.
  std::string errorName(CUresult R) const;
};

// The CUDA runtime (libcudart): only its version is read.
struct Runtime {
  Library Lib;
  int (*cudaRuntimeGetVersion)(int *) = nullptr;
  bool load(const std::string &Name); // empty Name: the usual sonames
};

// NVML (libnvidia-ml.so.1): the driver's release string ("550.54.15").
struct Nvml {
  Library Lib;
  std::string DriverRelease; // empty when NVML is absent or fails
  std::string Error;
  void load();
};

// 12040 -> "12.4"; 13000 -> "13.0".
std::string cudaVersionString(int V);
// cuDNN 8: 8500 -> "8.5"; cuDNN 9: 90100 -> "9.1".
std::string cudnnVersionString(long V);

} // namespace torchtidy::doctor
