// What the doctor asks LibTorch: its own build facts (layer 3) and the
// device work of layer 4. Kept apart so only one file parses LibTorch.
#pragma once

#include <string>
#include <vector>

namespace torchtidy::doctor {

struct TorchBuild {
  std::string Version;       // TORCH_VERSION of the headers built against
  bool BuiltWithCuda = false; // the CUDA hooks of libtorch_cuda are registered
  long CudaVersion = 0;       // CUDART_VERSION LibTorch was compiled with (12040)
  bool HasCudnn = false;
  long CudnnVersion = 0;      // 8500 = 8.5.0
  std::string ArchFlags;      // "NVCC architecture flags" of at::show_config()
  std::vector<int> Sm, Ptx;   // from ArchFlags: 80 for sm_80, compute_80
  std::string Error;          // a LibTorch exception met while reading
};
TorchBuild readTorchBuild();

struct TorchDevices {
  bool Available = false; // torch::cuda::is_available()
  int Count = 0;          // torch::cuda::device_count()
  std::string Error;
};
TorchDevices readTorchDevices();

// Allocates Bytes on cuda:Device through LibTorch's caching allocator.
bool torchAllocate(int Device, size_t Bytes, std::string &Error);

// A 256x256 float matrix product on cuda:Device against the CPU result.
struct MatmulCheck {
  bool Ran = false;
  double MaxRelError = 0;
  std::string Error;
};
MatmulCheck torchMatmulCheck(int Device);

// N x N float32 matrix products on cuda:Device, in TFLOP/s (0 on error).
double torchMatmulTflops(int Device, int N, std::string &Error);

} // namespace torchtidy::doctor
