// Metadata of a check: the one place every front end (standalone tool,
// clang-tidy plugin, runtime join, docs index) reads a rule's facts from.
#pragma once

#include <string>
#include <vector>

namespace torchtidy {

enum class Level { Note, Warning, Error };
enum class Precision { High, Medium, Low };

// What a run of the program shows when a check's problem happens: the trace
// events that confirm its findings (analyzer/confirm, docs/trace.md).
enum class RuntimeSignal {
  None,             // nothing a run can show
  HostSync,         // the host waits for the device: scalar reads, copies to the host, syncs
  Transfer,         // a copy between two devices
  PageableTransfer, // a copy between two devices from memory that is not pinned
  StaleGradient,    // gradients accumulated into ones not cleared since the last step
  DataParallel,     // a data_parallel / replicate call
};

struct RuleOption {
  std::string Name;        // "IncludePeriodic", used as "<id>.<Name>"
  std::string Default;     // as text, the way .clang-tidy stores it
  std::string Description;
};

struct RuleInfo {
  std::string Id;          // "torch-hardcoded-device"
  std::string Summary;     // one line
  Level DefaultLevel = Level::Warning;
  torchtidy::Precision Confidence = torchtidy::Precision::High;
  std::vector<std::string> Tags;  // performance, correctness, portability, memory
  std::vector<RuleOption> Options;
  // Only a program that may use CUDA can have its findings: the analyzer
  // drops them when no file of the program can name a CUDA device.
  bool NeedsCuda = false;
  RuntimeSignal Signal = RuntimeSignal::None;

  // Relative to the repository: docs/rules/<id>.md.
  std::string docPath() const { return "docs/rules/" + Id + ".md"; }
};

const char *levelName(Level L);
const char *precisionName(Precision P);

} // namespace torchtidy
