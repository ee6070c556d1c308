#include "driver/ConfiguredAnalysis.h"

#include "driver/Progress.h"
#include "checks/Registry.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <set>

namespace torchtidy {

ConfiguredRun analyseConfigured(const clang::tooling::CompilationDatabase &DB,
                                const std::vector<std::string> &Sources, ConfigFinder &Finder,
                                AnalysisOptions Base, bool ShowProgress) {
  ConfiguredRun Run;
  std::set<std::string> Reported;
  auto configError = [&](const std::string &E) {
    if (Reported.insert(E).second)
      Run.ConfigErrors.push_back(E);
  };
  // Groups in the order of their first source, so results keep input order.
  std::vector<std::shared_ptr<const Config>> Order;
  std::map<const Config *, std::vector<size_t>> Groups;
  for (size_t I = 0; I < Sources.size(); ++I) {
    std::string Error;
    std::shared_ptr<const Config> C = Finder.forFile(Sources[I], Error);
    if (!C) {
      configError(Error);
      continue;
    }
    if (C->excluded(Sources[I])) {
      ++Run.Excluded;
      continue;
    }
    if (C->enabledChecks().empty()) {
      configError((C->File.empty() ? std::string("the command line") : C->File) + ": Checks '" +
                  C->Checks + "' enables no check (see --list-checks)");
      continue;
    }
    if (!Groups.count(C.get()))
      Order.push_back(C);
    Groups[C.get()].push_back(I);
  }
  size_t Total = 0;
  for (auto &[C, Indices] : Groups)
    Total += Indices.size();
  Progress P(Total, ShowProgress);
  std::set<const RuleInfo *> Used;
  std::map<size_t, TUResult> ByIndex;
  for (const std::shared_ptr<const Config> &C : Order) {
    AnalysisOptions Opts = Base;
    Opts.Checks = C->enabledChecks();
    Opts.Options = C->Options;
    Opts.OnDone = [&P](const TUResult &R, size_t, size_t) { P.done(R.File); };
    Used.insert(Opts.Checks.begin(), Opts.Checks.end());
    std::vector<std::string> Files;
    for (size_t I : Groups[C.get()])
      Files.push_back(Sources[I]);
    std::vector<TUResult> Results = analyse(DB, Files, Opts);
    for (size_t J = 0; J < Results.size(); ++J) {
      applyConfig(*C, Results[J]);
      ByIndex[Groups[C.get()][J]] = std::move(Results[J]);
    }
  }
  for (auto &[Index, R] : ByIndex)
    Run.Results.push_back(std::move(R));
  for (const CheckFactory &F : allChecks())
    if (Used.count(F.Info))
      Run.Rules.push_back(F.Info);
  return Run;
}

} // namespace torchtidy
