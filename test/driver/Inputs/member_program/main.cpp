#include "data.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  DataSet set; Images images;
  int errors = 0;
  for (size_t i = 0; i < 100; ++i) {
    Element obj = set.get(i);
    errors += obj.label.item<int>() != 0;
    errors += set.onDevice(i, device).label.item<int>() + set.onDevice(i, device).img.sum().item<int>();
    auto e = set.example(i);
    errors += e.target.item<int>() + e.data.sum().item<int>();
    errors += images.get(i).target.item<int>() + images.get(i).data.sum().item<int>();
  }
  return errors;
}
