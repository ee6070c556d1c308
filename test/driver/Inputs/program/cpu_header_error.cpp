#include "cpu_header_error.h"

// pybind11 is missing: Clang drops the statements that use its types, whose
// text is read for a GPU's name. A CPU device and a tensor's own device
// name none.
torch::Tensor from_array(const pybind11::handle &obj, const torch::Tensor &like) {
  pybind11::buffer_info info = pybind11::array_t<float>(obj).request();
  const int64_t n = info.shape[0];
  torch::Tensor out = torch::empty({n}, torch::dtype(torch::kFloat32).device(torch::kCPU));
  std::memcpy(out.data_ptr<float>(), info.ptr, n * sizeof(float));
  return out.to(like.device());
}

int main() {
  double total = 0;
  torch::Tensor like = torch::zeros({1}, torch::Device("cpu"));
  for (int step = 0; step < 10; ++step) {
    torch::Tensor x = torch::rand({8}).to(like.device());
    total += x.sum().item<double>();
  }
  return total > 0;
}
