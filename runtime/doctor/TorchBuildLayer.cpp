// Layer 3: LibTorch was built with CUDA, with cuDNN, sees the devices, and
// has kernels for their architectures.
#include "Machine.h"

#include <algorithm>
#include <set>

namespace torchtidy::doctor {

void checkTorchBuild(Machine &M, Layer &L) {
  if (!M.Torch.Error.empty())
    L.warn("LibTorch version", M.Torch.Version + " (" + M.Torch.Error + ")", "LibTorch threw while reporting its build",
           "check the LibTorch installation");
  else
    L.ok("LibTorch version", M.Torch.Version);
  std::string D = cudaVersionString(M.DriverVersion);
  if (!M.Torch.BuiltWithCuda) {
    L.fail("built with CUDA", "no (CPU-only build: libtorch_cuda is not linked)",
           "this LibTorch is a CPU-only build, so torch::cuda::is_available() is false whatever the driver",
           "download a CUDA build of LibTorch for CUDA " + D +
               " or older (pytorch.org), point CMAKE_PREFIX_PATH or Torch_DIR at it and rebuild");
    return;
  }
  L.ok("built with CUDA", "yes, CUDA " + cudaVersionString(int(M.Torch.CudaVersion)));
  if (M.Torch.HasCudnn) {
    L.ok("cuDNN", cudnnVersionString(M.Torch.CudnnVersion) + " (" + std::to_string(M.Torch.CudnnVersion) + ")");
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
  else if (TD.Count != int(M.Devices.size()))
    L.warn("torch::cuda::is_available()", "true, " + std::to_string(TD.Count) + " devices (driver: " +
                                              std::to_string(M.Devices.size()) + ")",
           "LibTorch sees a different number of devices than the driver", "echo $CUDA_VISIBLE_DEVICES");
  else
    L.ok("torch::cuda::is_available()", "true, " + std::to_string(TD.Count) + " devices");

  // Kernels for each device's architecture: sm_XY runs on X.Y' with Y' >= Y;
  // PTX for compute_XY is compiled at first use on any later architecture.
  if (M.Torch.Sm.empty() && M.Torch.Ptx.empty())
    return;
  std::string Archs;
  for (int S : M.Torch.Sm)
    Archs += (Archs.empty() ? "sm_" : " sm_") + std::to_string(S);
  for (int P : M.Torch.Ptx)
    Archs += (Archs.empty() ? "compute_" : " compute_") + std::to_string(P);
  std::set<int> Seen;
  for (const DeviceInfo &Dev : M.Devices) {
    int Cc = Dev.Major * 10 + Dev.Minor;
    if (!Seen.insert(Cc).second)
      continue;
    std::string Label = "kernels for sm_" + std::to_string(Cc);
    bool Sass = std::any_of(M.Torch.Sm.begin(), M.Torch.Sm.end(),
                            [&](int S) { return S / 10 == Dev.Major && S <= Cc; });
    bool Ptx = std::any_of(M.Torch.Ptx.begin(), M.Torch.Ptx.end(), [&](int P) { return P <= Cc; });
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

} // namespace torchtidy::doctor
