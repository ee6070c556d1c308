// Call summaries across the translation units of the program. Each TU's
// analysis exports what its functions do (keyed by Clang's USR, so that
// every file names a function the same way; positions as file:line:col,
// since the AST is gone when another TU reads them) and records which
// functions without a body it looked up. The analyzer hands the merged table
// to the analyses that follow, and analyses again a TU whose look-ups now
// find other entries than it saw.
#pragma once

#include "analyses/CallSummary.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace torchtidy {

// USR -> what a call of that function does, every location as a FilePos.
// Facts that analyses exchange across files sit beside them under keys that
// are no USR: one entry whose What is FactHolds or FactFails.
using FunctionTable = std::map<std::string, std::vector<ReachedEffect>>;
inline const char *const FactHolds = "holds";
inline const char *const FactFails = "fails";

// What an answer drawn from the facts under a prefix depends on.
enum class FactQuestion {
  AllHold,      // every fact holds (none is fine)
  SomeAllHold,  // there is a fact, and every one holds
  Some,         // there is a fact
  Content       // what the facts say
};

// What one TU gives the program and what it took from it.
struct TUSummary {
  bool MayUseCuda = true;       // codeMayUseCuda of the TU
  bool TakesDevice = true;      // takesDeviceFromCaller of the TU
  bool DefinesMain = false;
  FunctionTable Functions;      // its functions that other files can call
  std::set<std::string> Asked;  // functions without a body it looked up
  std::string Seen;             // digestOf(the table it was analysed with, Asked)
};

class ProgramSummaries {
public:
  explicit ProgramSummaries(const FunctionTable &Others) : Others(Others) {}
  // The entry of a function defined elsewhere; null when none.
  const std::vector<ReachedEffect> *lookup(const std::string &Usr);
  // The facts whose key starts with Prefix, but for those that end with
  // Except (the asker's own). Asked records the question the caller's
  // answer depends on, so that only a change of its answer (not of the
  // facts) makes the TU stale.
  std::vector<std::pair<std::string, const std::vector<ReachedEffect> *>>
  factsUnder(const std::string &Prefix, FactQuestion Q, const std::string &Except = "");
  const std::set<std::string> &asked() const { return Asked; }

private:
  const FunctionTable &Others;
  std::set<std::string> Asked;
};

// Clang's USR of the declaration; empty when it has none.
std::string usrOf(const clang::Decl *D);

// The summaries of the functions with external linkage defined in the
// top-level declarations Decls; an overriding method's (file-local classes
// too) under the USRs of the methods it overrides, where a virtual call
// through the base finds it.
FunctionTable exportSummaries(CallSummaries &S, llvm::ArrayRef<clang::Decl *> Decls,
                              llvm::function_ref<FilePos(clang::SourceLocation)> Where);

// Puts the effects' locations, and their chains', into Elsewhere, for a
// reader that has not this TU's AST.
void locateElsewhere(std::vector<ReachedEffect> &Effects,
                     llvm::function_ref<FilePos(clang::SourceLocation)> Where);

// Adds From's entries to Into, one effect of each kind per function.
void mergeInto(FunctionTable &Into, const FunctionTable &From);

// A text that changes whenever an entry of Asked in Table changes.
std::string digestOf(const FunctionTable &Table, const std::set<std::string> &Asked);

// The entries of Table that one element of Asked names: a function's, or
// every fact under a prefix asked with factsUnder.
void forEachAsked(const FunctionTable &Table, const std::string &Asked,
                  llvm::function_ref<void(const std::string &, const std::vector<ReachedEffect> &)> F);

} // namespace torchtidy
