// torchtidy run / torchtidy confirm: the runtime-trace join.
// Reads a torchtidy-trace/1 file (runtime/shim, docs/trace.md),
// symbolizes its stacks with LLVM's DebugInfo symbolizer, and joins the
// events to static findings (torchtidy-findings/1 JSON or SARIF 2.1.0) by
// rule and source line.
#pragma once

#include "formats/LogReader.h"

#include "framework/RuleInfo.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace torchtidy {
namespace confirm {

struct SourceLine {
  std::string File;
  unsigned Line = 0;
  std::string Function;
};

struct TraceEvent {
  std::string Kind, Op, Src, Dst;
  int Pinned = -1, NonBlocking = -1, Stale = -1;
  uint64_t Count = 0, Blocking = 0, TotalNs = 0, BlockedNs = 0;
  std::vector<SourceLine> Lines; // every symbolized frame, innermost first (inlined frames included)
  bool Used = false;             // claimed by a static finding
};

struct Trace {
  std::string Path, Exe, Evidence, CudaReason, EndHow, EndDescription;
  int EndSignal = 0;
  uint64_t Sites = 0, Events = 0, Dropped = 0;
  std::vector<TraceEvent> Events_;
  std::vector<std::string> Notes; // e.g. "built without -g"
  bool deviceObserved() const { return Evidence == "device"; }
};

struct StaticFinding : LoggedFinding {
  // Filled by the join.
  std::string Status; // confirmed, not-executed, not-observable (a transfer on a CPU-only run), no-runtime-signal
  uint64_t Hits = 0, Blocking = 0, BlockedNs = 0, TotalNs = 0;
};

struct RuntimeOnly {
  std::string Rule, File, Message, Op;
  unsigned Line = 0;
  uint64_t Hits = 0, Blocking = 0, BlockedNs = 0;
};

// Error is set (and false returned) when a file cannot be read or is not
// in a format this version knows.
bool readTrace(const std::string &Path, Trace &T, std::string &Error);
// Log keeps the parsed file, so that SARIF output annotates the input.
bool readFindings(const std::string &Path, std::vector<StaticFinding> &F, nlohmann::json &Log, bool &IsSarif,
                  std::string &Error);
// The same on a file's text (test/fuzz); Path is only named in errors.
bool parseTrace(const std::string &Path, llvm::StringRef Text, Trace &T, std::string &Error);
bool parseFindings(const std::string &Path, llvm::StringRef Text, std::vector<StaticFinding> &F,
                   nlohmann::json &Log, bool &IsSarif, std::string &Error);
// The event kinds that confirm a check of signal S, as docs/trace.md's
// table says them.
std::string signalEvents(RuntimeSignal S);
// The signal a finding's check declares in its RuleInfo; none for an id
// this version does not know.
RuntimeSignal signalOf(const std::string &Rule);
void join(Trace &T, std::vector<StaticFinding> &F, std::vector<RuntimeOnly> &Only, unsigned HotThreshold);

int runCommand(int Argc, const char **Argv, const char *Self);
int confirmCommand(int Argc, const char **Argv, const char *Self);

} // namespace confirm
} // namespace torchtidy
