#include "formats/SarifMerge.h"
#include "formats/LogReader.h"
#include "formats/SarifLog.h"
#include "support/AtomicFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy {
namespace {

using nlohmann::json;

const char Usage[] = "usage: torchtidy merge-sarif <a.sarif> <b.sarif>... -o <merged.sarif>\n"
                     "\n"
                     "Merges the SARIF logs of torchtidy runs (the shards of a CI matrix, see\n"
                     "--shard=I/N) into one log with one run: the rules of all, each once, every\n"
                     "result and every invocation. The output is written atomically. Exit status:\n"
                     "0 merged, 2 usage error or an input that is not a torchtidy SARIF log.\n";

int usage(const std::string &Message) {
  llvm::errs() << "torchtidy merge-sarif: error: " << Message << "\n" << Usage;
  return 2;
}

std::optional<json> readLog(const std::string &File, std::string &Error) {
  auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buffer) {
    Error = File + ": cannot read it: " + Buffer.getError().message();
    return std::nullopt;
  }
  json Log;
  LogText Parsed = parseSarif((*Buffer)->getBuffer(), Log);
  if (Parsed == LogText::NotJson || !Log.is_object()) {
    Error = File + ": not JSON";
    return std::nullopt;
  }
  if (Parsed != LogText::Sarif || Log.value("version", "") != "2.1.0") {
    Error = File + ": not a SARIF 2.1.0 log (no \"version\": \"2.1.0\" and \"runs\")";
    return std::nullopt;
  }
  for (const json &Run : Log["runs"]) {
    if (!Run.is_object() || Run.value("/tool/driver/name"_json_pointer, "") != "torchtidy") {
      Error = File + ": a run not made by torchtidy";
      return std::nullopt;
    }
  }
  return Log;
}

// Adds Run's rules, results and invocations to Into; a result's ruleIndex
// is renumbered to the merged rules.
void mergeRun(json &Into, const json &Run, std::map<std::string, size_t> &RuleIndex) {
  json &Rules = Into["tool"]["driver"]["rules"];
  for (const json &R : Run.value("/tool/driver/rules"_json_pointer, json::array())) {
    std::string Id = R.value("id", "");
    if (RuleIndex.emplace(Id, Rules.size()).second)
      Rules.push_back(R);
  }
  for (json R : Run.value("results", json::array())) {
    auto It = RuleIndex.find(R.value("ruleId", ""));
    if (It != RuleIndex.end())
      R["ruleIndex"] = It->second;
    else
      R.erase("ruleIndex");
    Into["results"].push_back(std::move(R));
  }
  for (const json &I : Run.value("invocations", json::array()))
    Into["invocations"].push_back(I);
}

} // namespace

int mergeSarifCommand(int Argc, const char **Argv, const char *) {
  std::vector<std::string> Inputs;
  std::string Output;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "-h" || A == "--help") {
      llvm::outs() << Usage;
      return 0;
    }
    if (A == "-o" || A == "--output") {
      if (I + 1 >= Argc)
        return usage(A + " needs a file");
      Output = Argv[++I];
    } else if (A.rfind("--output=", 0) == 0) {
      Output = A.substr(9);
    } else if (!A.empty() && A[0] == '-') {
      return usage("unknown option '" + A + "'");
    } else {
      Inputs.push_back(A);
    }
  }
  if (Inputs.empty())
    return usage("no input logs");
  if (Output.empty())
    return usage("no output file (-o <merged.sarif>)");

  std::optional<json> Merged;
  std::map<std::string, size_t> RuleIndex;
  for (const std::string &File : Inputs) {
    std::string Error;
    std::optional<json> Log = readLog(File, Error);
    if (!Log) {
      llvm::errs() << "torchtidy merge-sarif: error: " << Error << "\n";
      return 2;
    }
    for (const json &Run : (*Log)["runs"]) {
      if (!Merged) {
        // The first run gives the tool, the base URIs and the category.
        json First = Run;
        First["tool"]["driver"]["rules"] = json::array();
        First["results"] = json::array();
        First["invocations"] = json::array();
        Merged = sarifLog(std::move(First));
      }
      mergeRun((*Merged)["runs"][0], Run, RuleIndex);
    }
  }
  if (!Merged)
    return usage("the inputs hold no run");
  if ((*Merged)["runs"][0]["invocations"].empty())
    (*Merged)["runs"][0].erase("invocations");
  std::string Error;
  if (!writeFileAtomically(Output, sarifText(*Merged), Error)) {
    llvm::errs() << "torchtidy merge-sarif: error: " << Error << "\n";
    return 2;
  }
  return 0;
}

} // namespace torchtidy
