#include "formats/Baseline.h"

#include "formats/LogReader.h"
#include "formats/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace torchtidy {

std::optional<Baseline> Baseline::load(const std::string &Path, std::string &Error) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer) {
    Error = Path + ": cannot read the baseline: " + Buffer.getError().message();
    return std::nullopt;
  }
  return parse(Path, (*Buffer)->getBuffer(), Error);
}

std::optional<Baseline> Baseline::parse(const std::string &Path, llvm::StringRef Text,
                                        std::string &Error) try {
  nlohmann::json Log;
  switch (parseSarif(Text, Log)) {
  case LogText::NotJson:
    Error = Path + ": the baseline is not JSON (expected a SARIF log from --write-baseline)";
    return std::nullopt;
  case LogText::NotSarif:
    Error = Path + ": the baseline is not a SARIF log (no 'runs' array)";
    return std::nullopt;
  case LogText::Sarif:
    break;
  }
  using Ptr = nlohmann::json::json_pointer;
  const Ptr UriAt("/locations/0/physicalLocation/artifactLocation/uri"),
      HashAt("/partialFingerprints/primaryLocationLineHash");
  Baseline B;
  for (const nlohmann::json &Run : Log["runs"]) {
    size_t Index = 0;
    for (const nlohmann::json &R : Run.value("results", nlohmann::json::array())) {
      if (!R.is_object() || !R.contains(UriAt) || !R.contains(HashAt) || !R.at(UriAt).is_string() ||
          !R.at(HashAt).is_string()) {
        Error = Path + ": result " + std::to_string(Index) +
                " has no location URI or no partialFingerprints.primaryLocationLineHash "
                "(write baselines with --write-baseline)";
        return std::nullopt;
      }
      B.Known.emplace(R.at(UriAt).get<std::string>(), R.at(HashAt).get<std::string>());
      ++Index;
    }
  }
  return B;
} catch (const nlohmann::json::exception &E) {
  // A value of another type than SARIF's, e.g. a run that is not an object.
  Error = Path + ": the baseline is not a valid SARIF log: " + E.what();
  return std::nullopt;
}

size_t Baseline::filter(std::vector<Finding> &Findings) const {
  size_t Before = Findings.size();
  llvm::erase_if(Findings, [&](const Finding &F) {
    return Known.count({sarifUri(F.Pos.File), F.Fingerprint}) != 0;
  });
  return Before - Findings.size();
}

} // namespace torchtidy
