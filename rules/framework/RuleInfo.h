// Metadata of a check: the one place every front end (standalone tool,
// clang-tidy plugin, runtime join, docs index) reads a rule's facts from.
#pragma once

#include <string>
#include <vector>

namespace torchtidy {

enum class Level { Note, Warning, Error };
enum class Precision { High, Medium, Low };

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

  // Relative to the repository: docs/rules/<id>.md.
  std::string docPath() const { return "docs/rules/" + Id + ".md"; }
};

const char *levelName(Level L);
const char *precisionName(Precision P);

} // namespace torchtidy
