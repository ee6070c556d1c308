// Provenance across calls: a parameter lives on the host (or on a device)
// when every call of its function in the program passes such a value. A
// file-local function's calls are all in its translation unit; another
// function's are gathered from every TU of the program through the call summaries
// (ProgramSummary), as facts keyed by the function's USR that each TU
// exports and the next round of analysis reads.
#pragma once

#include "analyses/ProgramSummary.h"

#include "clang/AST/ASTContext.h"

namespace torchtidy {

// While it lives, provenance in this thread reads the calls of Ctx's
// user code and the program's facts (none when Program is null: then only
// file-local functions' parameters are followed).
class PlaceFactsScope {
public:
  // Errors: where Clang's errors are, around the code it dropped.
  PlaceFactsScope(clang::ASTContext &Ctx, ProgramSummaries *Program,
                  llvm::ArrayRef<clang::SourceLocation> Errors = {});
  ~PlaceFactsScope();
  PlaceFactsScope(const PlaceFactsScope &) = delete;
  PlaceFactsScope &operator=(const PlaceFactsScope &) = delete;
};

// The program calls FD, and only outside loops (its address is never
// taken): each call runs it once. Calls of other files are read from their
// facts. Needs a live scope.
bool calledOnlyOutsideLoops(const clang::FunctionDecl &FD);

// The program has a main() and runs FD nowhere: no TU calls it from a
// function the program runs (only functions such as FD itself may call it),
// takes its address or names it in a call Clang did not resolve (in a
// template, in code it dropped); for a template, none of its instantiations
// here runs. Only for functions whose calls the code shows; not for a class
// that Qt's moc connects to (UncalledFunctions.cpp). Needs a live scope.
bool uncalledInProgram(const clang::FunctionDecl &FD);

// The TU defines main().
bool definesMain(clang::ASTContext &Ctx);

// Adds this TU's facts to Out: for each parameter of a tensor or of a
// container of tensors of a function other files can name, that a call
// passes it a value, and, for the host and for a device, whether one passes
// a value not known to live there (or the function's address is taken), and
// whether it calls the function only outside loops; for
// each such function defined here, whether every return lives there;
// whether the TU defines main(), and the names of the calls Clang did not
// resolve.
// Needs a live scope.
void exportPlaceFacts(FunctionTable &Out);

} // namespace torchtidy
