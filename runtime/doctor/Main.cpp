// torchtidy doctor: which layer of a LibTorch + CUDA machine is broken, and
// what to check next (docs/doctor.md). Layers, in order:
//   1 hardware and driver, 2 CUDA runtime against driver, 3 LibTorch build,
//   4 run time on the device.
// It stops at the first layer with a failed check; the exit status is that
// layer's number (0 when none failed, 64 for a usage error).
#include "Machine.h"

#include <cstdlib>
#include <functional>
#include <iostream>

using namespace torchtidy::doctor;

namespace {

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

TorchSummary summarise(const TorchBuild &T) {
  TorchSummary S;
  S.Version = T.Version;
  if (T.BuiltWithCuda && T.CudaVersion > 0)
    S.Cuda = cudaVersionString(int(T.CudaVersion));
  if (T.HasCudnn)
    S.Cudnn = cudnnVersionString(T.CudnnVersion);
  return S;
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
  Machine M;
  M.Opt = Opt;
  M.Torch = readTorchBuild();
  Report R;
  R.BenchAsked = Opt.Bench;
  R.Torch = summarise(M.Torch);
  std::vector<Measure> *Bench = Opt.Bench ? &R.Bench : nullptr;
  const std::function<void(Layer &)> Steps[] = {
      [&](Layer &L) { checkHardwareAndDriver(M, L); },
      [&](Layer &L) { checkRuntimeAgainstDriver(M, L); },
      [&](Layer &L) { checkTorchBuild(M, L); },
      [&](Layer &L) { checkDevices(M, L, Bench); }};
  for (int I = 0; I < 4; ++I) {
    R.Layers[I].Ran = true;
    Steps[I](R.Layers[I]);
    if (R.Layers[I].firstFailed())
      break;
  }
  if (Opt.Json)
    printJson(R);
  else
    printTable(R);
  return R.failedLayer();
}
