#include "support/Profile.h"

#include "llvm/Support/Format.h"

namespace torchtidy {

void Profile::addPhase(llvm::StringRef Phase, double Seconds) {
  std::lock_guard<std::mutex> G(Lock);
  Phases[Phase.str()] += Seconds;
}

void Profile::addCheck(llvm::StringRef CheckId, double Seconds) {
  std::lock_guard<std::mutex> G(Lock);
  Checks[CheckId.str()] += Seconds;
}

void Profile::count(llvm::StringRef What, unsigned N) {
  std::lock_guard<std::mutex> G(Lock);
  Counts[What.str()] += N;
}

void Profile::print(llvm::raw_ostream &OS, double TotalWallSeconds, unsigned Jobs) const {
  std::lock_guard<std::mutex> G(Lock);
  auto Line = [&](llvm::StringRef Name, double S) {
    OS << "  " << llvm::left_justify(Name, 36) << llvm::format("%9.3f s", S);
  };
  auto Phase = [&](const char *Name) {
    auto It = Phases.find(Name);
    return It == Phases.end() ? 0.0 : It->second;
  };
  OS << "torchtidy profile (seconds in each phase, summed over the " << Jobs << " worker(s)):\n";
  for (const char *Name : {"precompiled header", "result cache lookup", "parse", "result cache store"}) {
    Line(Name, Phase(Name));
    OS << "\n";
  }
  double Matching = 0;
  for (const auto &[Id, S] : Checks)
    Matching += S;
  double Parse = Phase("parse");
  Line("matching, all checks", Matching);
  if (Parse > 0)
    OS << llvm::format("  (%.2f%% of parse)", 100 * Matching / Parse);
  OS << "\n";
  for (const auto &[Id, S] : Checks) {
    Line("  " + Id, S);
    OS << "\n";
  }
  Line("reporting", Phase("reporting"));
  OS << "\n";
  Line("total (wall)", TotalWallSeconds);
  OS << "\n";
  if (!Counts.empty()) {
    OS << "  counts:";
    for (const auto &[What, N] : Counts)
      OS << " " << What << "=" << N;
    OS << "\n";
  }
}

} // namespace torchtidy
