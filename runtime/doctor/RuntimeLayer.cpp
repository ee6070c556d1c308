// Layer 2: the CUDA versions the program needs (the runtime library,
// LibTorch's, nvcc's) against the driver's.
#include "Machine.h"

#include <cstdlib>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace torchtidy::doctor {
namespace {

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

// A CUDA version the program needs against the driver's.
void judgeCuda(const Machine &M, Layer &L, const std::string &Check, const std::string &What, int Need) {
  std::string N = cudaVersionString(Need), D = cudaVersionString(M.DriverVersion);
  if (Need <= M.DriverVersion)
    L.ok(Check, What + " " + N + ", driver supports " + D);
  else if (Need / 1000 == M.DriverVersion / 1000)
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

} // namespace

void checkRuntimeAgainstDriver(Machine &M, Layer &L) {
  Runtime Rt;
  bool Usable = Rt.load(M.Opt.RuntimeLibrary);
  if (!Rt.Lib.loaded()) {
    if (M.Opt.RuntimeLibrary.empty())
      L.ok("CUDA runtime library", "none on the loader's path (LibTorch uses the one it ships)");
    else
      L.fail("CUDA runtime library", M.Opt.RuntimeLibrary + " did not load: " + Rt.Lib.Error,
             "the CUDA runtime library named by --runtime-library cannot be loaded", "ls -l " + M.Opt.RuntimeLibrary);
  } else if (!Usable) {
    L.fail("CUDA runtime library", Rt.Lib.Path + " lacks cudaRuntimeGetVersion",
           Rt.Lib.Path + " is not a CUDA runtime library", "ldconfig -p | grep libcudart");
  } else {
    int V = 0;
    if (Rt.cudaRuntimeGetVersion(&V) != 0 || V <= 0)
      L.warn("CUDA runtime library", Rt.Lib.Path + ": cudaRuntimeGetVersion failed",
             "the runtime library does not report its version", "ldconfig -p | grep libcudart");
    else
      judgeCuda(M, L, "CUDA runtime library", Rt.Lib.Path + ": CUDA", V);
  }

  if (M.Torch.BuiltWithCuda && M.Torch.CudaVersion > 0)
    judgeCuda(M, L, "LibTorch's CUDA", "LibTorch built for CUDA", int(M.Torch.CudaVersion));
  else
    L.ok("LibTorch's CUDA", "none (a CPU build: see layer 3)");

  std::string Nvcc = M.Opt.Nvcc.empty() ? findOnPath("nvcc") : M.Opt.Nvcc;
  if (Nvcc.empty()) {
    L.ok("nvcc", "not on PATH (only needed to compile CUDA code)");
    return;
  }
  std::string Error;
  int V = nvccVersion(Nvcc, Error);
  if (!V)
    L.warn("nvcc", Nvcc + ": " + Error, "the nvcc found cannot be run or read", Nvcc + " --version");
  else if (V > M.DriverVersion)
    L.warn("nvcc", Nvcc + ": CUDA " + cudaVersionString(V) + ", newer than the driver's " +
                       cudaVersionString(M.DriverVersion),
           "code compiled with this nvcc (CUDA " + cudaVersionString(V) +
               ") may not run on this driver (CUDA_ERROR_UNSUPPORTED_PTX_VERSION or insufficient driver)",
           "put an nvcc for CUDA " + cudaVersionString(M.DriverVersion) +
               " or older first on PATH, or update the driver");
  else
    L.ok("nvcc", Nvcc + ": CUDA " + cudaVersionString(V));
}

} // namespace torchtidy::doctor
