// Host provenance across calls: a parameter lives on the host when every
// call of its function in the program passes a host value. A file-local
// function's calls are all in its translation unit; another function's
// are gathered from every TU of the program through the call summaries
// (ProgramSummary), as facts keyed by the function's USR that each TU
// exports and the next round of analysis reads.
#pragma once

#include "analyses/ProgramSummary.h"

#include "clang/AST/ASTContext.h"

namespace torchtidy {

// While it lives, host provenance in this thread reads the calls of Ctx's
// user code and the program's facts (none when Program is null: then only
// file-local functions' parameters are followed).
class HostFactsScope {
public:
  HostFactsScope(clang::ASTContext &Ctx, ProgramSummaries *Program);
  ~HostFactsScope();
  HostFactsScope(const HostFactsScope &) = delete;
  HostFactsScope &operator=(const HostFactsScope &) = delete;
};

// Adds this TU's facts to Out: for each parameter of a tensor or of a
// container of tensors of a function other files can name, that a call
// passes it a value, and that one passes a value not known to be on the
// host (or that the function's address is taken); for each such function
// defined here, that every return lives on the host. Needs a live scope.
void exportHostFacts(FunctionTable &Out);

} // namespace torchtidy
