// The report as the table people read and as JSON (schema in docs/doctor.md).
#include "Report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace torchtidy::doctor {
namespace {

std::string torchLine(const TorchSummary &T) {
  if (T.Cuda.empty())
    return "LibTorch " + T.Version + ", a CPU-only build";
  return "LibTorch " + T.Version + ", built with CUDA " + T.Cuda +
         (T.Cudnn.empty() ? ", without cuDNN" : ", cuDNN " + T.Cudnn);
}

} // namespace

void printTable(const Report &R) {
  size_t NameW = 0, VerdictW = 7;
  for (const Layer &L : R.Layers)
    for (const Check &C : L.Checks)
      NameW = std::max(NameW, C.Name.size());
  std::ostream &O = std::cout;
  O << "torchtidy doctor: " << torchLine(R.Torch) << "\n";
  int Failed = R.failedLayer();
  size_t HeadW = NameW + VerdictW + 4;
  for (const Layer &L : R.Layers)
    HeadW = std::max(HeadW, std::strlen(L.Name) + 11);
  for (const Layer &L : R.Layers) {
    std::string Head = "layer " + std::to_string(L.Number) + ": " + L.Name;
    std::string V = L.Ran ? verdictName(L.verdict()) : "not run (layer " + std::to_string(Failed) + " failed)";
    O << "\n" << Head << std::string(HeadW - Head.size(), ' ') << V << "\n";
    for (const Check &C : L.Checks)
      O << "  " << verdictName(C.V) << std::string(VerdictW + 2 - std::strlen(verdictName(C.V)), ' ') << C.Name
        << std::string(NameW + 2 - C.Name.size(), ' ') << C.Fact << "\n";
  }
  if (!R.Bench.empty()) {
    O << "\nbench\n";
    size_t W = 0;
    for (const Measure &M : R.Bench)
      W = std::max(W, M.Name.size());
    for (const Measure &M : R.Bench) {
      char Buf[64];
      std::snprintf(Buf, sizeof(Buf), "%10.2f %s", M.Value, M.Unit.c_str());
      O << "  device " << M.Device << "  " << M.Name << std::string(W + 2 - M.Name.size(), ' ')
        << (M.Error.empty() ? std::string(Buf) : "not measured: " + M.Error) << "\n";
    }
  } else if (R.BenchAsked) {
    O << "\nbench: not run (it needs layers 1 to 4)\n";
  }
  O << "\n";
  for (const Layer &L : R.Layers)
    for (const Check &C : L.Checks)
      if (C.V == Verdict::Warning)
        O << "warning: " << C.Name << ": " << C.Cause << "\n  next: " << C.Next << "\n";
  if (Failed) {
    const Layer &L = R.Layers[Failed - 1];
    const Check *C = L.firstFailed();
    O << "failed at layer " << Failed << " (" << L.Name << "): " << C->Name << "\n"
      << "  most likely cause: " << C->Cause << "\n"
      << "  next: " << C->Next << "\n";
    // Read without a device, so the user learns before fixing the driver
    // that this LibTorch could not use it anyway.
    if (Failed < 3 && R.Torch.Cuda.empty())
      O << "  also: " << torchLine(R.Torch) << ": once layer " << Failed
        << " is fixed, layer 3 fails too (get a CUDA build of LibTorch)\n";
  } else {
    O << "all four layers passed\n";
  }
}

void printJson(const Report &R) {
  using nlohmann::json;
  auto Str = [](const std::string &S) { return S.empty() ? json(nullptr) : json(S); };
  int Failed = R.failedLayer();
  json Out;
  Out["schema"] = "torchtidy-doctor";
  Out["schema_version"] = 1;
  Verdict Overall = Verdict::Ok;
  json Layers_ = json::array();
  for (const Layer &L : R.Layers) {
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
  const Check *C = Failed ? R.Layers[Failed - 1].firstFailed() : nullptr;
  Out["failed_check"] = C ? json(C->Name) : json(nullptr);
  Out["cause"] = C ? json(C->Cause) : json(nullptr);
  Out["next"] = C ? json(C->Next) : json(nullptr);
  Out["layers"] = Layers_;
  Out["libtorch"] = {{"version", R.Torch.Version}, {"cuda", Str(R.Torch.Cuda)}, {"cudnn", Str(R.Torch.Cudnn)}};
  if (R.BenchAsked) {
    json B = json::array();
    for (const Measure &M : R.Bench)
      B.push_back({{"device", M.Device}, {"measure", M.Name}, {"value", M.Error.empty() ? json(M.Value) : json(nullptr)},
                   {"unit", M.Unit}, {"error", Str(M.Error)}});
    Out["bench"] = B;
  }
  std::cout << Out.dump(2) << "\n";
}

} // namespace torchtidy::doctor
