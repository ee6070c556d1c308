#include "driver/ProgramResults.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <set>

namespace torchtidy {

FunctionTable programTable(const std::vector<TUResult> &Results) {
  FunctionTable Table;
  for (const TUResult &R : Results)
    mergeInto(Table, R.Summary.Functions);
  return Table;
}

std::vector<size_t> staleResults(const std::vector<TUResult> &Results, const FunctionTable &Table) {
  std::vector<size_t> Out;
  for (size_t I = 0; I < Results.size(); ++I)
    if (Results[I].Failure.empty() &&
        digestOf(Table, Results[I].Summary.Asked) != Results[I].Summary.Seen)
      Out.push_back(I);
  return Out;
}

static std::string normalised(llvm::StringRef File) {
  llvm::SmallString<256> Path(File);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

bool programIsCpuOnly(const std::vector<TUResult> &Results,
                      const clang::tooling::CompilationDatabase &DB) {
  std::set<std::string> Analysed;
  bool HasMain = false, TakesDevice = false;
  for (const TUResult &R : Results) {
    if (!R.Failure.empty() || R.Summary.MayUseCuda)
      return false;
    Analysed.insert(normalised(R.File));
    HasMain |= R.Summary.DefinesMain;
    TakesDevice |= R.Summary.TakesDevice;
  }
  // A library's callers may hand it a CUDA device.
  if (TakesDevice && !HasMain)
    return false;
  for (const std::string &F : DB.getAllFiles())
    if (!Analysed.count(normalised(F)))
      return false;
  return !Results.empty();
}

void dropCudaOnlyFindings(std::vector<TUResult> &Results) {
  for (TUResult &R : Results)
    llvm::erase_if(R.Findings, [](const Finding &F) { return F.Rule->NeedsCuda; });
}

} // namespace torchtidy
