// The analyzer's DiagSink: turns a check's Diag (Clang source locations)
// into Findings, dropping those in system headers.
#pragma once

#include "framework/Check.h"
#include "findings/Finding.h"

namespace torchtidy {

class FindingCollector : public DiagSink {
public:
  FindingCollector(std::vector<Finding> &Out, ProgramSummaries *Program)
      : Out(Out), Program(Program) {}
  void report(const Diag &D, const clang::SourceManager &SM) override;
  ProgramSummaries *program() override { return Program; }

private:
  std::vector<Finding> &Out;
  ProgramSummaries *Program;
};

// The position of a location in the file the user sees (for a macro, where
// it was expanded).
Position resolvePosition(clang::SourceLocation Loc, const clang::SourceManager &SM);

} // namespace torchtidy
