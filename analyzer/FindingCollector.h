// The analyzer's DiagSink: turns a check's Diag (Clang source locations)
// into Findings, dropping those in system headers.
#pragma once

#include "Check.h"
#include "Finding.h"

namespace torchtidy {

class FindingCollector : public DiagSink {
public:
  explicit FindingCollector(std::vector<Finding> &Out) : Out(Out) {}
  void report(const Diag &D, const clang::SourceManager &SM) override;

private:
  std::vector<Finding> &Out;
};

// The position of a location in the file the user sees (for a macro, where
// it was expanded).
Position resolvePosition(clang::SourceLocation Loc, const clang::SourceManager &SM);

} // namespace torchtidy
