// Layer 1: the driver library loads, the kernel modules are there, cuInit
// succeeds and the devices are counted and named, with their compute mode
// and peer access (read without a context).
#include "Machine.h"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace torchtidy::doctor {
namespace {

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

} // namespace

void checkHardwareAndDriver(Machine &M, Layer &L) {
  const std::string &Name = M.Opt.DriverLibrary;
  bool Usable = M.Drv.load(Name);
  if (!M.Drv.Lib.loaded())
    L.fail("driver library", Name + " did not load: " + M.Drv.Lib.Error,
           "the NVIDIA driver library " + Name +
               " is absent or not on the loader's path: no NVIDIA driver is installed, or this "
               "container was started without the GPU (NVIDIA Container Toolkit)",
           "nvidia-smi; ldconfig -p | grep libcuda; in a container: docker run --gpus all ...");
  else if (!Usable)
    L.fail("driver library", M.Drv.Lib.Path + " lacks " + M.Drv.Missing,
           M.Drv.Lib.Path + " is not a usable CUDA driver library (a stub from the toolkit, or a "
                          "very old driver)",
           "ldconfig -p | grep libcuda; remove /usr/local/cuda/lib64/stubs from LD_LIBRARY_PATH");
  else
    L.ok("driver library", M.Drv.Lib.Path);

  std::set<std::string> Modules;
  if (!readModules(M.Opt.ProcModules, Modules)) {
    for (const char *Module : {"nvidia module", "nvidia_uvm module"})
      L.warn(Module, "cannot read " + M.Opt.ProcModules,
             "the kernel module list is not readable here, so the modules are not checked", "lsmod | grep nvidia");
  } else {
    if (Modules.count("nvidia"))
      L.ok("nvidia module", "loaded (" + M.Opt.ProcModules + ")");
    else
      L.fail("nvidia module", "absent from " + M.Opt.ProcModules,
             "the NVIDIA kernel driver is not loaded (not installed for this kernel, or blocked by "
             "nouveau / Secure Boot)",
             "sudo modprobe nvidia; dmesg | grep -i -e nvidia -e nvrm");
    if (Modules.count("nvidia_uvm"))
      L.ok("nvidia_uvm module", "loaded (" + M.Opt.ProcModules + ")");
    else
      L.fail("nvidia_uvm module", "absent from " + M.Opt.ProcModules,
             "the nvidia_uvm kernel module is not loaded: CUDA needs it for memory management, "
             "and cuInit fails without it (often CUDA_ERROR_UNKNOWN)",
             "sudo modprobe nvidia_uvm (or: sudo nvidia-modprobe -u -c=0); ls -l /dev/nvidia-uvm");
  }
  if (!Usable)
    return;

  CUresult R = M.Drv.cuInit(0);
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
    L.fail("cuInit", "failed: " + M.Drv.errorName(R), Cause, Next);
    return;
  }
  L.ok("cuInit", "CUDA_SUCCESS");

  Nvml N;
  N.load();
  if (M.Drv.cuDriverGetVersion(&M.DriverVersion) != 0 || M.DriverVersion <= 0)
    L.fail("driver version", "cuDriverGetVersion failed", "the driver library does not report its version",
           "nvidia-smi");
  else
    L.ok("driver version", "supports CUDA " + cudaVersionString(M.DriverVersion) +
                               (N.DriverRelease.empty() ? std::string(" (NVML absent: no release number)")
                                                        : " (driver " + N.DriverRelease + ")"));

  int Count = 0;
  R = M.Drv.cuDeviceGetCount(&Count);
  if (R != 0 || Count <= 0) {
    L.fail("devices", R ? "cuDeviceGetCount failed: " + M.Drv.errorName(R) : "0",
           "the driver initialised but reports no CUDA device", "nvidia-smi -L; echo $CUDA_VISIBLE_DEVICES");
    return;
  }
  L.ok("devices", std::to_string(Count));
  for (int I = 0; I < Count; ++I) {
    DeviceInfo D;
    std::string Label = "device " + std::to_string(I);
    if ((R = M.Drv.cuDeviceGet(&D.Handle, I)) != 0) {
      L.fail(Label, "cuDeviceGet failed: " + M.Drv.errorName(R), "the driver cannot open a device it counted",
             "nvidia-smi; dmesg | grep -i nvrm");
      continue;
    }
    char Name[256] = {0};
    M.Drv.cuDeviceGetName(Name, sizeof(Name) - 1, D.Handle);
    D.Name = Name;
    M.Drv.cuDeviceGetAttribute(&D.Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, D.Handle);
    M.Drv.cuDeviceGetAttribute(&D.Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, D.Handle);
    M.Drv.cuDeviceGetAttribute(&D.Mode, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE, D.Handle);
    std::string Fact = D.Name + ", compute capability " + std::to_string(D.Major) + "." + std::to_string(D.Minor);
    size_t Total = 0;
    if (M.Drv.cuDeviceTotalMem && M.Drv.cuDeviceTotalMem(&Total, D.Handle) == 0)
      Fact += ", " + gib(double(Total));
    CUuuid U;
    if (M.Drv.cuDeviceGetUuid && M.Drv.cuDeviceGetUuid(&U, D.Handle) == 0)
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
    M.Devices.push_back(D);
  }
  // Peer access, read from the driver for each pair (no context needed).
  for (size_t I = 0; I < M.Devices.size(); ++I)
    for (size_t J = I + 1; J < M.Devices.size(); ++J) {
      int AB = 0, BA = 0;
      if (!M.Drv.cuDeviceCanAccessPeer)
        break;
      M.Drv.cuDeviceCanAccessPeer(&AB, M.Devices[I].Handle, M.Devices[J].Handle);
      M.Drv.cuDeviceCanAccessPeer(&BA, M.Devices[J].Handle, M.Devices[I].Handle);
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

} // namespace torchtidy::doctor
