// Layer 4: on each device, a context, free memory, an allocation and a
// matrix product through LibTorch checked against the CPU; with --bench,
// bandwidth and throughput.
#include "Machine.h"

#include <chrono>
#include <cstring>

namespace torchtidy::doctor {
namespace {

// Bandwidth through the driver API (the current context is device Index's),
// throughput through LibTorch.
void benchDevice(Machine &M, int Index, std::vector<Measure> &Bench) {
  const size_t Bytes = 256u << 20;
  const int Reps = 5;
  CUdeviceptr Dev = 0;
  if (!M.Drv.cuMemAlloc || !M.Drv.cuMemcpyHtoD || !M.Drv.cuMemcpyDtoH || M.Drv.cuMemAlloc(&Dev, Bytes) != 0) {
    Bench.push_back({Index, "bandwidth", 0, "GB/s", "cannot allocate 256 MiB on the device"});
  } else {
    void *Pinned = nullptr;
    std::vector<char> Pageable(Bytes, 1);
    if (!M.Drv.cuMemAllocHost || M.Drv.cuMemAllocHost(&Pinned, Bytes) != 0)
      Pinned = nullptr;
    else
      std::memset(Pinned, 1, Bytes);
    auto Time = [&](bool ToDevice, void *Host) {
      // One warm-up copy, then Reps timed synchronous copies.
      auto Copy = [&] {
        return ToDevice ? M.Drv.cuMemcpyHtoD(Dev, Host, Bytes) : M.Drv.cuMemcpyDtoH(Host, Dev, Bytes);
      };
      if (Copy() != 0)
        return 0.0;
      auto T0 = std::chrono::steady_clock::now();
      for (int I = 0; I < Reps; ++I)
        if (Copy() != 0)
          return 0.0;
      if (M.Drv.cuCtxSynchronize)
        M.Drv.cuCtxSynchronize();
      double S = std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count();
      return double(Bytes) * Reps / S / 1e9;
    };
    struct {
      const char *Name;
      bool ToDevice;
      void *Host;
    } Runs[] = {{"host to device, pinned", true, Pinned},
                {"device to host, pinned", false, Pinned},
                {"host to device, pageable", true, Pageable.data()},
                {"device to host, pageable", false, Pageable.data()}};
    for (auto &Run : Runs) {
      if (!Run.Host) {
        Bench.push_back({Index, Run.Name, 0, "GB/s", "cuMemAllocHost failed"});
        continue;
      }
      double V = Time(Run.ToDevice, Run.Host);
      Bench.push_back({Index, Run.Name, V, "GB/s", V > 0 ? "" : "copy failed"});
    }
    if (Pinned && M.Drv.cuMemFreeHost)
      M.Drv.cuMemFreeHost(Pinned);
    if (M.Drv.cuMemFree)
      M.Drv.cuMemFree(Dev);
  }
  std::string Error;
  double T = torchMatmulTflops(Index, 4096, Error);
  Bench.push_back({Index, "matmul 4096x4096 float32", T, "TFLOP/s", Error});
}

} // namespace

void checkDevices(Machine &M, Layer &L, std::vector<Measure> *Bench) {
  for (size_t I = 0; I < M.Devices.size(); ++I) {
    const DeviceInfo &D = M.Devices[I];
    std::string Label = "device " + std::to_string(I);
    CUcontext Ctx = nullptr;
    CUresult R = M.Drv.cuDevicePrimaryCtxRetain ? M.Drv.cuDevicePrimaryCtxRetain(&Ctx, D.Handle) : 999;
    if (R != 0 || !M.Drv.cuCtxSetCurrent || M.Drv.cuCtxSetCurrent(Ctx) != 0) {
      bool Busy = R == 46 || R == 216;
      L.fail(Label + " context", "cuDevicePrimaryCtxRetain failed: " + M.Drv.errorName(R),
             Busy ? "device " + std::to_string(I) + " is held by another process and is not shared "
                                                    "(exclusive-process compute mode)"
                  : "a CUDA context cannot be created on device " + std::to_string(I),
             Busy ? "nvidia-smi (the Processes table); nvidia-smi -i " + std::to_string(I) + " -q -d COMPUTE"
                  : "nvidia-smi; dmesg | grep -i nvrm");
      continue;
    }
    L.ok(Label + " context", "created");
    size_t Free = 0, Total = 0;
    if (M.Drv.cuMemGetInfo && M.Drv.cuMemGetInfo(&Free, &Total) == 0 && Total) {
      std::string Fact = gib(double(Free)) + " free of " + gib(double(Total));
      if (double(Free) < 0.05 * double(Total))
        L.warn(Label + " memory", Fact, "other processes use almost all the memory of this device",
               "nvidia-smi (the Processes table)");
      else
        L.ok(Label + " memory", Fact);
    }
    std::string Error;
    if (torchAllocate(int(I), 64u << 20, Error))
      L.ok(Label + " allocate", "64 MiB through LibTorch");
    else
      L.fail(Label + " allocate", "64 MiB through LibTorch failed: " + Error,
             "LibTorch cannot allocate memory on device " + std::to_string(I), "nvidia-smi (memory and processes)");
    MatmulCheck Product = torchMatmulCheck(int(I));
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.2g", Product.MaxRelError);
    if (!Product.Ran)
      L.fail(Label + " matmul", "256x256 float failed: " + Product.Error,
             "a LibTorch kernel cannot run on device " + std::to_string(I),
             "run the program with CUDA_LAUNCH_BLOCKING=1 to see the failing kernel; compute-sanitizer");
    else if (!(Product.MaxRelError < 1e-2))
      L.fail(Label + " matmul", std::string("256x256 float differs from the CPU: max relative error ") + Buf,
             "device " + std::to_string(I) + " computes wrong results (faulty memory, overheating or a broken "
                                             "driver)",
             "nvidia-smi -q -d ECC,TEMPERATURE; compute-sanitizer your program");
    else
      L.ok(Label + " matmul", std::string("256x256 float matches the CPU (max relative error ") + Buf + ")");
    if (Bench)
      benchDevice(M, int(I), *Bench);
  }
  for (const DeviceInfo &D : M.Devices)
    if (M.Drv.cuDevicePrimaryCtxRelease)
      M.Drv.cuDevicePrimaryCtxRelease(D.Handle);
}

} // namespace torchtidy::doctor
