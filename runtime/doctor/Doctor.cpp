// torchtidy doctor: which layer of a LibTorch + CUDA machine is broken, and
// what to check next (docs/doctor.md). Layers, in order:
//   1 hardware and driver, 2 CUDA runtime against driver, 3 LibTorch build,
//   4 run time on the device.
// It stops at the first layer with a failed check; the exit status is that
// layer's number (0 when none failed, 64 for a usage error).
#include "CudaLibraries.h"
#include "TorchFacts.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace torchtidy::doctor;

namespace {

enum class Verdict { Ok, Warning, Failed };

const char *verdictName(Verdict V) {
  switch (V) {
  case Verdict::Ok: return "ok";
  case Verdict::Warning: return "warning";
  case Verdict::Failed: return "failed";
  }
  return "?";
}

struct Check {
  std::string Name, Fact;
  Verdict V = Verdict::Ok;
  std::string Cause, Next; // for warnings and failures
};

struct Layer {
  int Number;
  const char *Name;
  bool Ran = false;
  std::vector<Check> Checks;

  void ok(std::string Name, std::string Fact) { Checks.push_back({std::move(Name), std::move(Fact)}); }
  void warn(std::string Name, std::string Fact, std::string Cause, std::string Next) {
    Checks.push_back({std::move(Name), std::move(Fact), Verdict::Warning, std::move(Cause), std::move(Next)});
  }
  void fail(std::string Name, std::string Fact, std::string Cause, std::string Next) {
    Checks.push_back({std::move(Name), std::move(Fact), Verdict::Failed, std::move(Cause), std::move(Next)});
  }
  const Check *firstFailed() const {
    for (const Check &C : Checks)
      if (C.V == Verdict::Failed)
        return &C;
    return nullptr;
  }
  Verdict verdict() const {
    Verdict V = Verdict::Ok;
    for (const Check &C : Checks)
      V = std::max(V, C.V);
    return V;
  }
};

struct Measure {
  int Device;
  std::string Name;
  double Value;
  std::string Unit;
  std::string Error;
};

struct Options {
  bool Json = false, Bench = false;
  std::string DriverLibrary = "libcuda.so.1";
  std::string ProcModules = "/proc/modules";
  std::string RuntimeLibrary; // empty: the usual libcudart sonames
  std::string Nvcc;           // empty: nvcc on PATH
};

const char Usage[] =
    "usage: torchtidy doctor [--json] [--bench] [--driver-library <path>]\n"
    "                        [--runtime-library <path>] [--proc-modules <path>] [--nvcc <path>]\n"
    "\n"
    "Checks, layer by layer, the machine's CUDA setup for LibTorch and stops at the first\n"
    "layer that fails: 1 hardware and driver, 2 CUDA runtime against driver, 3 LibTorch\n"
    "build, 4 run time on the device. Exit status: the number of the failed layer, 0 if\n"
    "none failed. See docs/doctor.md.\n"
    "\n"
    "  --json                    print the result as JSON (schema in docs/doctor.md)\n"
    "  --bench                   also measure host<->device bandwidth (pinned and pageable)\n"
    "                            and matrix product throughput\n"
    "  --driver-library <path>   the CUDA driver library to load (default libcuda.so.1)\n"
    "  --runtime-library <path>  the CUDA runtime library to load (default libcudart.so*)\n"
    "  --proc-modules <path>     the kernel module list to read (default /proc/modules)\n"
    "  --nvcc <path>             the nvcc to compare with the driver (default: nvcc on PATH)\n";

std::string gib(double Bytes) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.1f GiB", Bytes / (1024.0 * 1024.0 * 1024.0));
  return Buf;
}

std::string uuidString(const CUuuid &U) {
  static const char Hex[] = "0123456789abcdef";
  std::string S = "GPU-";
  for (int I = 0; I < 16; ++I) {
    if (I == 4 || I == 6 || I == 8 || I == 10)
      S += '-';
    unsigned char B = static_cast<unsigned char>(U.Bytes[I]);
    S += Hex[B >> 4];
    S += Hex[B & 15];
  }
  return S;
}

// The names of the loaded kernel modules, or false if the list is unreadable.
bool readModules(const std::string &Path, std::set<std::string> &Names) {
  std::ifstream In(Path);
  if (!In)
    return false;
  std::string Line;
  while (std::getline(In, Line)) {
    std::istringstream L(Line);
    std::string Name;
    if (L >> Name)
      Names.insert(Name);
  }
  return true;
}

std::string findOnPath(const std::string &Program) {
  if (Program.find('/') != std::string::npos)
    return Program;
  const char *Path = std::getenv("PATH");
  std::istringstream Dirs(Path ? Path : "");
  std::string Dir;
  while (std::getline(Dirs, Dir, ':')) {
    std::string Candidate = (Dir.empty() ? "." : Dir) + "/" + Program;
    struct stat St;
    if (stat(Candidate.c_str(), &St) == 0 && S_ISREG(St.st_mode) && access(Candidate.c_str(), X_OK) == 0)
      return Candidate;
  }
  return "";
}

// "release 12.4," in `nvcc --version` -> 12040; 0 when absent.
int nvccVersion(const std::string &Nvcc, std::string &Error) {
  std::string Cmd = "'" + Nvcc + "' --version 2>&1";
  FILE *P = popen(Cmd.c_str(), "r");
  if (!P) {
    Error = "cannot run it";
    return 0;
  }
  std::string Out;
  char Buf[512];
  while (size_t N = fread(Buf, 1, sizeof(Buf), P))
    Out.append(Buf, N);
  pclose(P);
  size_t At = Out.find("release ");
  int Major = 0, Minor = 0;
  if (At == std::string::npos || std::sscanf(Out.c_str() + At, "release %d.%d", &Major, &Minor) != 2) {
    Error = "no \"release X.Y\" in its --version output";
    return 0;
  }
  return Major * 1000 + Minor * 10;
}

struct DeviceInfo {
  CUdevice Handle = 0;
  std::string Name;
  int Major = 0, Minor = 0, Mode = 0;
};

class Doctor {
public:
  explicit Doctor(Options O) : Opt(std::move(O)) {}
  int run();

private:
  Options Opt;
  std::vector<Layer> Layers{{1, "hardware and driver"},
                            {2, "CUDA runtime against driver"},
                            {3, "LibTorch build"},
                            {4, "run time on the device"}};
  std::vector<Measure> Bench;
  Driver Drv;
  int DriverVersion = 0;
  std::vector<DeviceInfo> Devices;
  TorchBuild Torch;

  void layer1(Layer &L);
  void layer2(Layer &L);
  void layer3(Layer &L);
  void layer4(Layer &L);
  void bench(int Index);
  void judgeCuda(Layer &L, const std::string &Check, const std::string &What, int Need);
  int failedLayer() const;
  void printTable() const;
  void printJson() const;
};

void Doctor::layer1(Layer &L) {
  const std::string &Name = Opt.DriverLibrary;
  bool Usable = Drv.load(Name);
  if (!Drv.Lib.loaded())
    L.fail("driver library", Name + " did not load: " + Drv.Lib.Error,
           "the NVIDIA driver library " + Name +
               " is absent or not on the loader's path: no NVIDIA driver is installed, or this "
               "container was started without the GPU (NVIDIA Container Toolkit)",
           "nvidia-smi; ldconfig -p | grep libcuda; in a container: docker run --gpus all ...");
  else if (!Usable)
    L.fail("driver library", Drv.Lib.Path + " lacks " + Drv.Missing,
           Drv.Lib.Path + " is not a usable CUDA driver library (a stub from the toolkit, or a "
                          "very old driver)",
           "ldconfig -p | grep libcuda; remove /usr/local/cuda/lib64/stubs from LD_LIBRARY_PATH");
  else
    L.ok("driver library", Drv.Lib.Path);

  std::set<std::string> Modules;
  if (!readModules(Opt.ProcModules, Modules)) {
    L.warn("nvidia module", "cannot read " + Opt.ProcModules,
           "the kernel module list is not readable here, so the modules are not checked", "lsmod | grep nvidia");
    L.warn("nvidia_uvm module", "cannot read " + Opt.ProcModules,
           "the kernel module list is not readable here, so the modules are not checked", "lsmod | grep nvidia");
  } else {
    if (Modules.count("nvidia"))
      L.ok("nvidia module", "loaded (" + Opt.ProcModules + ")");
    else
      L.fail("nvidia module", "absent from " + Opt.ProcModules,
             "the NVIDIA kernel driver is not loaded (not installed for this kernel, or blocked by "
             "nouveau / Secure Boot)",
             "sudo modprobe nvidia; dmesg | grep -i -e nvidia -e nvrm");
    if (Modules.count("nvidia_uvm"))
      L.ok("nvidia_uvm module", "loaded (" + Opt.ProcModules + ")");
    else
      L.fail("nvidia_uvm module", "absent from " + Opt.ProcModules,
             "the nvidia_uvm kernel module is not loaded: CUDA needs it for memory management, "
             "and cuInit fails without it (often CUDA_ERROR_UNKNOWN)",
             "sudo modprobe nvidia_uvm (or: sudo nvidia-modprobe -u -c=0); ls -l /dev/nvidia-uvm");
  }
  if (!Usable)
    return;

  CUresult R = Drv.cuInit(0);
  if (R != 0) {
    std::string Cause, Next;
    const char *Visible = std::getenv("CUDA_VISIBLE_DEVICES");
    switch (R) {
    case 100:
      Cause = "the driver sees no CUDA device: no GPU is attached to this machine, container or VM";
      if (Visible)
        Cause += std::string(", or CUDA_VISIBLE_DEVICES=\"") + Visible + "\" hides them";
      Next = "nvidia-smi -L; echo $CUDA_VISIBLE_DEVICES";
      break;
    case 35:
      Cause = "the installed kernel driver is older than the driver library";
      Next = "nvidia-smi; cat /proc/driver/nvidia/version; reboot after a driver upgrade";
      break;
    case 803:
      Cause = "the driver library and the kernel module come from different driver releases (a "
              "driver upgrade without a reboot, or a container whose libcuda differs from the host's)";
      Next = "cat /proc/driver/nvidia/version; nvidia-smi; reboot, or reinstall one driver release";
      break;
    case 804:
      Cause = "a CUDA forward-compatibility libcuda is used on a GPU that does not support it";
      Next = "remove the cuda-compat directory from LD_LIBRARY_PATH; ldconfig -p | grep libcuda";
      break;
    case 304:
    case 800:
      Cause = "this user may not open the GPU device files";
      Next = "ls -l /dev/nvidia*; groups";
      break;
    case 999:
      Cause = "the driver failed to initialise; most often nvidia_uvm is not loaded or /dev/nvidia-uvm "
              "is missing";
      Next = "sudo modprobe nvidia_uvm; ls -l /dev/nvidia*; dmesg | grep -i nvrm";
      break;
    default:
      Cause = "the CUDA driver failed to initialise";
      Next = "nvidia-smi; dmesg | grep -i nvrm";
    }
    L.fail("cuInit", "failed: " + Drv.errorName(R), Cause, Next);
    return;
  }
  L.ok("cuInit", "CUDA_SUCCESS");

  Nvml N;
  N.load();
  if (Drv.cuDriverGetVersion(&DriverVersion) != 0 || DriverVersion <= 0)
    L.fail("driver version", "cuDriverGetVersion failed", "the driver library does not report its version",
           "nvidia-smi");
  else
    L.ok("driver version", "supports CUDA " + cudaVersionString(DriverVersion) +
                               (N.DriverRelease.empty() ? std::string(" (NVML absent: no release number)")
                                                        : " (driver " + N.DriverRelease + ")"));

  int Count = 0;
  R = Drv.cuDeviceGetCount(&Count);
  if (R != 0 || Count <= 0) {
    L.fail("devices", R ? "cuDeviceGetCount failed: " + Drv.errorName(R) : "0",
           "the driver initialised but reports no CUDA device", "nvidia-smi -L; echo $CUDA_VISIBLE_DEVICES");
    return;
  }
  L.ok("devices", std::to_string(Count));
  for (int I = 0; I < Count; ++I) {
    DeviceInfo D;
    std::string Label = "device " + std::to_string(I);
    if ((R = Drv.cuDeviceGet(&D.Handle, I)) != 0) {
      L.fail(Label, "cuDeviceGet failed: " + Drv.errorName(R), "the driver cannot open a device it counted",
             "nvidia-smi; dmesg | grep -i nvrm");
      continue;
    }
    char Name[256] = {0};
    Drv.cuDeviceGetName(Name, sizeof(Name) - 1, D.Handle);
    D.Name = Name;
    Drv.cuDeviceGetAttribute(&D.Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, D.Handle);
    Drv.cuDeviceGetAttribute(&D.Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, D.Handle);
    Drv.cuDeviceGetAttribute(&D.Mode, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, D.Handle);
    std::string Fact = D.Name + ", compute capability " + std::to_string(D.Major) + "." + std::to_string(D.Minor);
    size_t Total = 0;
    if (Drv.cuDeviceTotalMem && Drv.cuDeviceTotalMem(&Total, D.Handle) == 0)
      Fact += ", " + gib(double(Total));
    CUuuid U;
    if (Drv.cuDeviceGetUuid && Drv.cuDeviceGetUuid(&U, D.Handle) == 0)
      Fact += ", " + uuidString(U);
    L.ok(Label, Fact);
    // The compute mode is read here, with the device, so it is judged even
    // when a later layer (a CPU-only LibTorch) stops the doctor.
    std::string ModeLabel = Label + " compute mode";
    std::string Smi = "nvidia-smi -i " + std::to_string(I);
    switch (D.Mode) {
    case CU_COMPUTEMODE_DEFAULT:
      L.ok(ModeLabel, "default (shared by processes)");
      break;
    case CU_COMPUTEMODE_EXCLUSIVE_PROCESS:
    case CU_COMPUTEMODE_EXCLUSIVE_THREAD:
      L.warn(ModeLabel, D.Mode == 3 ? "exclusive-process" : "exclusive-thread",
             "only one process at a time may use device " + std::to_string(I) +
                 ": while another process (a second job, a notebook kernel, a DataLoader worker that "
                 "touches CUDA) holds it, this one gets CUDA_ERROR_DEVICE_UNAVAILABLE",
             Smi + " -q -d COMPUTE; to share it: sudo " + Smi + " -c DEFAULT");
      break;
    case CU_COMPUTEMODE_PROHIBITED:
      L.fail(ModeLabel, "prohibited",
             "device " + std::to_string(I) + " is in compute-prohibited mode: no process may create a "
                                             "CUDA context on it",
             "sudo " + Smi + " -c DEFAULT");
      break;
    default:
      L.warn(ModeLabel, "unknown (" + std::to_string(D.Mode) + ")", "the driver reports a compute mode this "
                                                                    "doctor does not know",
             Smi + " -q -d COMPUTE");
    }
    Devices.push_back(D);
  }
  // Peer access, read from the driver for each pair (no context needed).
  for (size_t I = 0; I < Devices.size(); ++I)
    for (size_t J = I + 1; J < Devices.size(); ++J) {
      int AB = 0, BA = 0;
      if (!Drv.cuDeviceCanAccessPeer)
        break;
      Drv.cuDeviceCanAccessPeer(&AB, Devices[I].Handle, Devices[J].Handle);
      Drv.cuDeviceCanAccessPeer(&BA, Devices[J].Handle, Devices[I].Handle);
      std::string Label = "peer access " + std::to_string(I) + "<->" + std::to_string(J);
      if (AB && BA)
        L.ok(Label, "yes");
      else
        L.warn(Label, AB ? "only " + std::to_string(I) + "->" + std::to_string(J)
                         : BA ? "only " + std::to_string(J) + "->" + std::to_string(I) : "no",
               "copies between devices " + std::to_string(I) + " and " + std::to_string(J) +
                   " go through host memory: data- and model-parallel training across them is slower",
               "nvidia-smi topo -m");
    }
}

void Doctor::judgeCuda(Layer &L, const std::string &Check, const std::string &What, int Need) {
  std::string N = cudaVersionString(Need), D = cudaVersionString(DriverVersion);
  if (Need <= DriverVersion)
    L.ok(Check, What + " " + N + ", driver supports " + D);
  else if (Need / 1000 == DriverVersion / 1000)
    L.warn(Check, What + " " + N + ", driver supports " + D,
           "the driver is older than CUDA " + N + " within the same major version: it runs through CUDA "
           "minor version compatibility, but PTX compiled for " + N + " and features newer than " + D + " fail",
           "update the NVIDIA driver to one that supports CUDA " + N + " (nvidia-smi shows the CUDA version)");
  else
    L.fail(Check, What + " " + N + ", driver supports only " + D,
           "the driver (CUDA " + D + ") is too old for " + What + " " + N +
               ": CUDA calls fail with CUDA_ERROR_INSUFFICIENT_DRIVER and torch::cuda::is_available() is false",
           "nvidia-smi; install a driver that supports CUDA " + N + ", or use a LibTorch built for CUDA " + D +
               " or older");
}

void Doctor::layer2(Layer &L) {
  Runtime Rt;
  bool Usable = Rt.load(Opt.RuntimeLibrary);
  if (!Rt.Lib.loaded()) {
    if (Opt.RuntimeLibrary.empty())
      L.ok("CUDA runtime library", "none on the loader's path (LibTorch uses the one it ships)");
    else
      L.fail("CUDA runtime library", Opt.RuntimeLibrary + " did not load: " + Rt.Lib.Error,
             "the CUDA runtime library named by --runtime-library cannot be loaded", "ls -l " + Opt.RuntimeLibrary);
  } else if (!Usable) {
    L.fail("CUDA runtime library", Rt.Lib.Path + " lacks cudaRuntimeGetVersion",
           Rt.Lib.Path + " is not a CUDA runtime library", "ldconfig -p | grep libcudart");
  } else {
    int V = 0;
    if (Rt.cudaRuntimeGetVersion(&V) != 0 || V <= 0)
      L.warn("CUDA runtime library", Rt.Lib.Path + ": cudaRuntimeGetVersion failed",
             "the runtime library does not report its version", "ldconfig -p | grep libcudart");
    else
      judgeCuda(L, "CUDA runtime library", Rt.Lib.Path + ": CUDA", V);
  }

  if (Torch.BuiltWithCuda && Torch.CudaVersion > 0)
    judgeCuda(L, "LibTorch's CUDA", "LibTorch built for CUDA", int(Torch.CudaVersion));
  else
    L.ok("LibTorch's CUDA", "none (a CPU build: see layer 3)");

  std::string Nvcc = Opt.Nvcc.empty() ? findOnPath("nvcc") : Opt.Nvcc;
  if (Nvcc.empty()) {
    L.ok("nvcc", "not on PATH (only needed to compile CUDA code)");
    return;
  }
  std::string Error;
  int V = nvccVersion(Nvcc, Error);
  if (!V)
    L.warn("nvcc", Nvcc + ": " + Error, "the nvcc found cannot be run or read", Nvcc + " --version");
  else if (V > DriverVersion)
    L.warn("nvcc", Nvcc + ": CUDA " + cudaVersionString(V) + ", newer than the driver's " +
                       cudaVersionString(DriverVersion),
           "code compiled with this nvcc (CUDA " + cudaVersionString(V) +
               ") may not run on this driver (CUDA_ERROR_UNSUPPORTED_PTX_VERSION or insufficient driver)",
           "put an nvcc for CUDA " + cudaVersionString(DriverVersion) +
               " or older first on PATH, or update the driver");
  else
    L.ok("nvcc", Nvcc + ": CUDA " + cudaVersionString(V));
}

void Doctor::layer3(Layer &L) {
  if (!Torch.Error.empty())
    L.warn("LibTorch version", Torch.Version + " (" + Torch.Error + ")", "LibTorch threw while reporting its build",
           "check the LibTorch installation");
  else
    L.ok("LibTorch version", Torch.Version);
  std::string D = cudaVersionString(DriverVersion);
  if (!Torch.BuiltWithCuda) {
    L.fail("built with CUDA", "no (CPU-only build: libtorch_cuda is not linked)",
           "this LibTorch is a CPU-only build, so torch::cuda::is_available() is false whatever the driver",
           "download a CUDA build of LibTorch for CUDA " + D +
               " or older (pytorch.org), point CMAKE_PREFIX_PATH or Torch_DIR at it and rebuild");
    return;
  }
  L.ok("built with CUDA", "yes, CUDA " + cudaVersionString(int(Torch.CudaVersion)));
  if (Torch.HasCudnn) {
    long V = Torch.CudnnVersion;
    // cuDNN 8: 8500 = 8.5.0; cuDNN 9: 90100 = 9.1.0.
    long Major = V >= 10000 ? V / 10000 : V / 1000, Minor = V >= 10000 ? (V / 100) % 100 : (V / 100) % 10;
    L.ok("cuDNN", std::to_string(Major) + "." + std::to_string(Minor) + " (" + std::to_string(V) + ")");
  } else {
    L.warn("cuDNN", "not built with cuDNN", "convolutions and RNNs run slower, cuDNN-only operators fail",
           "use a LibTorch build with cuDNN (the pytorch.org CUDA builds have it)");
  }
  TorchDevices TD = readTorchDevices();
  if (!TD.Available)
    L.fail("torch::cuda::is_available()", "false" + (TD.Error.empty() ? "" : " (" + TD.Error + ")"),
           "LibTorch's CUDA cannot use the devices the driver reports (another libcuda or libcudart "
           "on LD_LIBRARY_PATH, or CUDA_VISIBLE_DEVICES set differently for the program)",
           "ldd your program | grep -e cuda -e torch; echo $CUDA_VISIBLE_DEVICES");
  else if (TD.Count != int(Devices.size()))
    L.warn("torch::cuda::is_available()", "true, " + std::to_string(TD.Count) + " devices (driver: " +
                                              std::to_string(Devices.size()) + ")",
           "LibTorch sees a different number of devices than the driver", "echo $CUDA_VISIBLE_DEVICES");
  else
    L.ok("torch::cuda::is_available()", "true, " + std::to_string(TD.Count) + " devices");

  // Kernels for each device's architecture: sm_XY runs on X.Y' with Y' >= Y;
  // PTX for compute_XY is compiled at first use on any later architecture.
  if (Torch.Sm.empty() && Torch.Ptx.empty())
    return;
  std::string Archs;
  for (int S : Torch.Sm)
    Archs += (Archs.empty() ? "sm_" : " sm_") + std::to_string(S);
  for (int P : Torch.Ptx)
    Archs += (Archs.empty() ? "compute_" : " compute_") + std::to_string(P);
  std::set<int> Seen;
  for (const DeviceInfo &Dev : Devices) {
    int Cc = Dev.Major * 10 + Dev.Minor;
    if (!Seen.insert(Cc).second)
      continue;
    std::string Label = "kernels for sm_" + std::to_string(Cc);
    bool Sass = std::any_of(Torch.Sm.begin(), Torch.Sm.end(),
                            [&](int S) { return S / 10 == Dev.Major && S <= Cc; });
    bool Ptx = std::any_of(Torch.Ptx.begin(), Torch.Ptx.end(), [&](int P) { return P <= Cc; });
    if (Sass)
      L.ok(Label, "yes (LibTorch has " + Archs + ")");
    else if (Ptx)
      L.warn(Label, "PTX only (LibTorch has " + Archs + ")",
             "LibTorch has no compiled kernels for " + Dev.Name + ": they are JIT-compiled from PTX at first "
             "use (a long start, and slower kernels)",
             "use a LibTorch build whose architecture list includes sm_" + std::to_string(Cc));
    else
      L.fail(Label, "no (LibTorch has " + Archs + ")",
             "LibTorch has no kernels for " + Dev.Name + " (sm_" + std::to_string(Cc) +
                 "): kernel launches fail with \"no kernel image is available for execution on the device\"",
             "use a LibTorch build (usually a newer CUDA one) whose architecture list includes sm_" +
                 std::to_string(Cc));
  }
}

void Doctor::layer4(Layer &L) {
  for (size_t I = 0; I < Devices.size(); ++I) {
    const DeviceInfo &D = Devices[I];
    std::string Label = "device " + std::to_string(I);
    CUcontext Ctx = nullptr;
    CUresult R = Drv.cuDevicePrimaryCtxRetain ? Drv.cuDevicePrimaryCtxRetain(&Ctx, D.Handle) : 999;
    if (R != 0 || !Drv.cuCtxSetCurrent || Drv.cuCtxSetCurrent(Ctx) != 0) {
      bool Busy = R == 46 || R == 216;
      L.fail(Label + " context", "cuDevicePrimaryCtxRetain failed: " + Drv.errorName(R),
             Busy ? "device " + std::to_string(I) + " is held by another process and is not shared "
                                                    "(exclusive-process compute mode)"
                  : "a CUDA context cannot be created on device " + std::to_string(I),
             Busy ? "nvidia-smi (the Processes table); nvidia-smi -i " + std::to_string(I) + " -q -d COMPUTE"
                  : "nvidia-smi; dmesg | grep -i nvrm");
      continue;
    }
    L.ok(Label + " context", "created");
    size_t Free = 0, Total = 0;
    if (Drv.cuMemGetInfo && Drv.cuMemGetInfo(&Free, &Total) == 0 && Total) {
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
    MatmulCheck M = torchMatmulCheck(int(I));
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.2g", M.MaxRelError);
    if (!M.Ran)
      L.fail(Label + " matmul", "256x256 float failed: " + M.Error,
             "a LibTorch kernel cannot run on device " + std::to_string(I),
             "run the program with CUDA_LAUNCH_BLOCKING=1 to see the failing kernel; compute-sanitizer");
    else if (!(M.MaxRelError < 1e-2))
      L.fail(Label + " matmul", std::string("256x256 float differs from the CPU: max relative error ") + Buf,
             "device " + std::to_string(I) + " computes wrong results (faulty memory, overheating or a broken "
                                             "driver)",
             "nvidia-smi -q -d ECC,TEMPERATURE; compute-sanitizer your program");
    else
      L.ok(Label + " matmul", std::string("256x256 float matches the CPU (max relative error ") + Buf + ")");
    if (Opt.Bench)
      bench(int(I));
  }
  for (const DeviceInfo &D : Devices)
    if (Drv.cuDevicePrimaryCtxRelease)
      Drv.cuDevicePrimaryCtxRelease(D.Handle);
}

// Bandwidth through the driver API (the current context is device Index's),
// throughput through LibTorch.
void Doctor::bench(int Index) {
  const size_t Bytes = 256u << 20;
  const int Reps = 5;
  CUdeviceptr Dev = 0;
  if (!Drv.cuMemAlloc || !Drv.cuMemcpyHtoD || !Drv.cuMemcpyDtoH || Drv.cuMemAlloc(&Dev, Bytes) != 0) {
    Bench.push_back({Index, "bandwidth", 0, "GB/s", "cannot allocate 256 MiB on the device"});
  } else {
    void *Pinned = nullptr;
    std::vector<char> Pageable(Bytes, 1);
    if (!Drv.cuMemAllocHost || Drv.cuMemAllocHost(&Pinned, Bytes) != 0)
      Pinned = nullptr;
    else
      std::memset(Pinned, 1, Bytes);
    auto Time = [&](bool ToDevice, void *Host) {
      // One warm-up copy, then Reps timed synchronous copies.
      auto Copy = [&] {
        return ToDevice ? Drv.cuMemcpyHtoD(Dev, Host, Bytes) : Drv.cuMemcpyDtoH(Host, Dev, Bytes);
      };
      if (Copy() != 0)
        return 0.0;
      auto T0 = std::chrono::steady_clock::now();
      for (int I = 0; I < Reps; ++I)
        if (Copy() != 0)
          return 0.0;
      if (Drv.cuCtxSynchronize)
        Drv.cuCtxSynchronize();
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
    if (Pinned && Drv.cuMemFreeHost)
      Drv.cuMemFreeHost(Pinned);
    if (Drv.cuMemFree)
      Drv.cuMemFree(Dev);
  }
  std::string Error;
  double T = torchMatmulTflops(Index, 4096, Error);
  Bench.push_back({Index, "matmul 4096x4096 float32", T, "TFLOP/s", Error});
}

int Doctor::failedLayer() const {
  for (const Layer &L : Layers)
    if (L.Ran && L.firstFailed())
      return L.Number;
  return 0;
}

int Doctor::run() {
  Torch = readTorchBuild();
  using Step = void (Doctor::*)(Layer &);
  const Step Steps[] = {&Doctor::layer1, &Doctor::layer2, &Doctor::layer3, &Doctor::layer4};
  for (int I = 0; I < 4; ++I) {
    Layers[I].Ran = true;
    (this->*Steps[I])(Layers[I]);
    if (Layers[I].firstFailed())
      break;
  }
  if (Opt.Json)
    printJson();
  else
    printTable();
  return failedLayer();
}

void Doctor::printTable() const {
  size_t NameW = 0, VerdictW = 7;
  for (const Layer &L : Layers)
    for (const Check &C : L.Checks)
      NameW = std::max(NameW, C.Name.size());
  std::ostream &O = std::cout;
  O << "torchtidy doctor\n";
  int Failed = failedLayer();
  size_t HeadW = NameW + VerdictW + 4;
  for (const Layer &L : Layers)
    HeadW = std::max(HeadW, std::strlen(L.Name) + 11);
  for (const Layer &L : Layers) {
    std::string Head = "layer " + std::to_string(L.Number) + ": " + L.Name;
    std::string V = L.Ran ? verdictName(L.verdict()) : "not run (layer " + std::to_string(Failed) + " failed)";
    O << "\n" << Head << std::string(HeadW - Head.size(), ' ') << V << "\n";
    for (const Check &C : L.Checks)
      O << "  " << verdictName(C.V) << std::string(VerdictW + 2 - std::strlen(verdictName(C.V)), ' ') << C.Name
        << std::string(NameW + 2 - C.Name.size(), ' ') << C.Fact << "\n";
  }
  if (!Bench.empty()) {
    O << "\nbench\n";
    size_t W = 0;
    for (const Measure &M : Bench)
      W = std::max(W, M.Name.size());
    for (const Measure &M : Bench) {
      char Buf[64];
      std::snprintf(Buf, sizeof(Buf), "%10.2f %s", M.Value, M.Unit.c_str());
      O << "  device " << M.Device << "  " << M.Name << std::string(W + 2 - M.Name.size(), ' ')
        << (M.Error.empty() ? std::string(Buf) : "not measured: " + M.Error) << "\n";
    }
  } else if (Opt.Bench) {
    O << "\nbench: not run (it needs layers 1 to 4)\n";
  }
  O << "\n";
  for (const Layer &L : Layers)
    for (const Check &C : L.Checks)
      if (C.V == Verdict::Warning)
        O << "warning: " << C.Name << ": " << C.Cause << "\n  next: " << C.Next << "\n";
  if (Failed) {
    const Layer &L = Layers[Failed - 1];
    const Check *C = L.firstFailed();
    O << "failed at layer " << Failed << " (" << L.Name << "): " << C->Name << "\n"
      << "  most likely cause: " << C->Cause << "\n"
      << "  next: " << C->Next << "\n";
  } else {
    O << "all four layers passed\n";
  }
}

void Doctor::printJson() const {
  using nlohmann::json;
  auto Str = [](const std::string &S) { return S.empty() ? json(nullptr) : json(S); };
  int Failed = failedLayer();
  json Out;
  Out["schema"] = "torchtidy-doctor";
  Out["schema_version"] = 1;
  Verdict Overall = Verdict::Ok;
  json Layers_ = json::array();
  for (const Layer &L : Layers) {
    json J;
    J["layer"] = L.Number;
    J["name"] = L.Name;
    J["verdict"] = L.Ran ? verdictName(L.verdict()) : "not run";
    if (L.Ran)
      Overall = std::max(Overall, L.verdict());
    json Checks = json::array();
    for (const Check &C : L.Checks)
      Checks.push_back({{"check", C.Name}, {"fact", C.Fact}, {"verdict", verdictName(C.V)},
                        {"cause", Str(C.Cause)}, {"next", Str(C.Next)}});
    J["checks"] = Checks;
    Layers_.push_back(J);
  }
  Out["verdict"] = verdictName(Overall);
  Out["exit_status"] = Failed;
  Out["failed_layer"] = Failed ? json(Failed) : json(nullptr);
  const Check *C = Failed ? Layers[Failed - 1].firstFailed() : nullptr;
  Out["failed_check"] = C ? json(C->Name) : json(nullptr);
  Out["cause"] = C ? json(C->Cause) : json(nullptr);
  Out["next"] = C ? json(C->Next) : json(nullptr);
  Out["layers"] = Layers_;
  if (Opt.Bench) {
    json B = json::array();
    for (const Measure &M : Bench)
      B.push_back({{"device", M.Device}, {"measure", M.Name}, {"value", M.Error.empty() ? json(M.Value) : json(nullptr)},
                   {"unit", M.Unit}, {"error", Str(M.Error)}});
    Out["bench"] = B;
  }
  std::cout << Out.dump(2) << "\n";
}

} // namespace

int main(int Argc, char **Argv) {
  Options Opt;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](const char *Flag, std::string &To) {
      std::string F = Flag;
      if (A == F) {
        if (I + 1 >= Argc) {
          std::cerr << "torchtidy doctor: error: " << F << " needs a value\n" << Usage;
          std::exit(64);
        }
        To = Argv[++I];
        return true;
      }
      if (A.compare(0, F.size() + 1, F + "=") == 0) {
        To = A.substr(F.size() + 1);
        return true;
      }
      return false;
    };
    if (A == "--json")
      Opt.Json = true;
    else if (A == "--bench")
      Opt.Bench = true;
    else if (A == "-h" || A == "--help") {
      std::cout << Usage;
      return 0;
    } else if (Value("--driver-library", Opt.DriverLibrary) || Value("--proc-modules", Opt.ProcModules) ||
               Value("--runtime-library", Opt.RuntimeLibrary) || Value("--nvcc", Opt.Nvcc))
      continue;
    else {
      std::cerr << "torchtidy doctor: error: unknown argument '" << A << "'\n" << Usage;
      return 64;
    }
  }
  return Doctor(Opt).run();
}
