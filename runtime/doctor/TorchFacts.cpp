#include "TorchFacts.h"

#include <ATen/ATen.h>
#include <ATen/Version.h>
#include <torch/cuda.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <regex>

namespace torchtidy::doctor {

TorchBuild readTorchBuild() {
  TorchBuild B;
  B.Version = TORCH_VERSION;
  try {
    const at::CUDAHooksInterface &Hooks = at::detail::getCUDAHooks();
    // The default hooks (no libtorch_cuda) answer false and throw on the
    // version queries; the CUDA hooks answer with compile-time versions.
    B.BuiltWithCuda = Hooks.hasCUDART();
    if (B.BuiltWithCuda) {
      B.CudaVersion = Hooks.versionCUDART();
      B.HasCudnn = Hooks.compiledWithCuDNN();
      if (B.HasCudnn)
        B.CudnnVersion = Hooks.versionCuDNN();
    }
  } catch (const std::exception &E) {
    B.Error = E.what();
  }
  try {
    std::string Config = at::show_config();
    size_t At = Config.find("NVCC architecture flags:");
    if (At != std::string::npos) {
      size_t End = Config.find('\n', At);
      B.ArchFlags = Config.substr(At + 24, End == std::string::npos ? std::string::npos : End - At - 24);
      while (!B.ArchFlags.empty() && B.ArchFlags.front() == ' ')
        B.ArchFlags.erase(0, 1);
      static const std::regex Sm("(sm|compute)_([0-9]+)");
      for (std::sregex_iterator I(B.ArchFlags.begin(), B.ArchFlags.end(), Sm), E; I != E; ++I) {
        int V = std::stoi((*I)[2]);
        std::vector<int> &To = (*I)[1] == "sm" ? B.Sm : B.Ptx;
        if (std::find(To.begin(), To.end(), V) == To.end())
          To.push_back(V);
      }
    }
  } catch (const std::exception &) {
  }
  return B;
}

TorchDevices readTorchDevices() {
  TorchDevices D;
  try {
    D.Available = torch::cuda::is_available();
    D.Count = static_cast<int>(torch::cuda::device_count());
  } catch (const std::exception &E) {
    D.Error = E.what();
  }
  return D;
}

bool torchAllocate(int Device, size_t Bytes, std::string &Error) {
  try {
    at::Tensor T = at::empty({static_cast<int64_t>(Bytes)},
                             at::TensorOptions().dtype(at::kByte).device(at::kCUDA, Device));
    T.fill_(1);
    torch::cuda::synchronize(Device);
    return true;
  } catch (const std::exception &E) {
    Error = E.what();
    size_t Nl = Error.find('\n');
    if (Nl != std::string::npos)
      Error.resize(Nl);
    return false;
  }
}

MatmulCheck torchMatmulCheck(int Device) {
  MatmulCheck M;
  try {
    at::manual_seed(0);
    at::Tensor A = at::rand({256, 256}), B = at::rand({256, 256});
    at::Tensor Cpu = at::matmul(A.to(at::kDouble), B.to(at::kDouble));
    at::Tensor Dev = at::matmul(A.to(at::Device(at::kCUDA, Device)), B.to(at::Device(at::kCUDA, Device)));
    at::Tensor Back = Dev.to(at::kCPU).to(at::kDouble);
    M.MaxRelError = ((Back - Cpu).abs() / Cpu.abs().clamp_min(1e-6)).max().item<double>();
    M.Ran = true;
  } catch (const std::exception &E) {
    M.Error = E.what();
    size_t Nl = M.Error.find('\n');
    if (Nl != std::string::npos)
      M.Error.resize(Nl);
  }
  return M;
}

double torchMatmulTflops(int Device, int N, std::string &Error) {
  try {
    at::TensorOptions O = at::TensorOptions().dtype(at::kFloat).device(at::kCUDA, Device);
    at::Tensor A = at::rand({N, N}, O), B = at::rand({N, N}, O);
    at::Tensor C = at::matmul(A, B); // warm up (cuBLAS handle, kernels)
    torch::cuda::synchronize(Device);
    const int Reps = 10;
    auto T0 = std::chrono::steady_clock::now();
    for (int I = 0; I < Reps; ++I)
      C = at::matmul(A, B);
    torch::cuda::synchronize(Device);
    double S = std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count();
    return 2.0 * N * N * double(N) * Reps / S / 1e12;
  } catch (const std::exception &E) {
    Error = E.what();
    size_t Nl = Error.find('\n');
    if (Nl != std::string::npos)
      Error.resize(Nl);
    return 0;
  }
}

} // namespace torchtidy::doctor
