// The doctor's report: layers of checks, each with the fact it read and a
// verdict, and the bench's measures. Filled by the layers, read by the
// printers.
#pragma once

#include <string>
#include <vector>

namespace torchtidy::doctor {

enum class Verdict { Ok, Warning, Failed };
const char *verdictName(Verdict V);

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

  void ok(std::string Name, std::string Fact);
  void warn(std::string Name, std::string Fact, std::string Cause, std::string Next);
  void fail(std::string Name, std::string Fact, std::string Cause, std::string Next);
  const Check *firstFailed() const;
  Verdict verdict() const;
};

struct Measure {
  int Device;
  std::string Name;
  double Value;
  std::string Unit;
  std::string Error;
};

// What LibTorch says of its own build, known without a device: reported
// even when an earlier layer stops the doctor before layer 3.
struct TorchSummary {
  std::string Version;
  std::string Cuda;  // "12.4"; empty for a CPU-only build
  std::string Cudnn; // "9.1"; empty without cuDNN
};

struct Report {
  std::vector<Layer> Layers{{1, "hardware and driver"},
                            {2, "CUDA runtime against driver"},
                            {3, "LibTorch build"},
                            {4, "run time on the device"}};
  std::vector<Measure> Bench;
  bool BenchAsked = false;
  TorchSummary Torch;

  // The number of the first layer that ran and failed; 0 if none.
  int failedLayer() const;
};

void printTable(const Report &R);
void printJson(const Report &R);

} // namespace torchtidy::doctor
