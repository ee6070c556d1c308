// What the layers learn of the machine and pass on to later layers: the
// loaded driver, its CUDA version, the devices, LibTorch's build.
#pragma once

#include "CudaLibraries.h"
#include "Report.h"
#include "TorchFacts.h"

#include <cstdio>
#include <string>
#include <vector>

namespace torchtidy::doctor {

struct Options {
  bool Json = false, Bench = false;
  std::string DriverLibrary = "libcuda.so.1";
  std::string ProcModules = "/proc/modules";
  std::string RuntimeLibrary; // empty: the usual libcudart sonames
  std::string Nvcc;           // empty: nvcc on PATH
};

struct DeviceInfo {
  CUdevice Handle = 0;
  std::string Name;
  int Major = 0, Minor = 0, Mode = 0;
};

struct Machine {
  Options Opt;
  Driver Drv;
  int DriverVersion = 0;
  std::vector<DeviceInfo> Devices;
  TorchBuild Torch;
};

// One function per layer, each named for what it checks.
void checkHardwareAndDriver(Machine &M, Layer &L);
void checkRuntimeAgainstDriver(Machine &M, Layer &L);
void checkTorchBuild(Machine &M, Layer &L);
void checkDevices(Machine &M, Layer &L, std::vector<Measure> *Bench);

inline std::string gib(double Bytes) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.1f GiB", Bytes / (1024.0 * 1024.0 * 1024.0));
  return Buf;
}

} // namespace torchtidy::doctor
