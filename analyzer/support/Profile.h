// --profile: where the time went, summed over translation units (seconds of
// wall time spent in each phase by the workers), printed to stderr.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace torchtidy {

class Profile {
public:
  // Thread-safe: workers add as they go.
  void addPhase(llvm::StringRef Phase, double Seconds);
  void addCheck(llvm::StringRef CheckId, double Seconds);
  void count(llvm::StringRef What, unsigned N = 1);
  void print(llvm::raw_ostream &OS, double TotalWallSeconds, unsigned Jobs) const;

private:
  mutable std::mutex Lock;
  std::map<std::string, double> Phases;
  std::map<std::string, double> Checks;
  std::map<std::string, unsigned> Counts;
};

// Seconds since construction.
class Stopwatch {
public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  }

private:
  std::chrono::steady_clock::time_point Start = std::chrono::steady_clock::now();
};

} // namespace torchtidy
