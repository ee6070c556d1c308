// The program-wide step after the TUs are analysed: the table of what every
// TU's functions do, the TUs to analyse again because a call of theirs into
// another file now finds another summary, and the CPU-only decision.
#pragma once

#include "findings/Finding.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <vector>

namespace torchtidy {

// The merged exports of the results.
FunctionTable programTable(const std::vector<TUResult> &Results);

// The results whose calls into other files see other entries in Table than
// they were analysed with.
std::vector<size_t> staleResults(const std::vector<TUResult> &Results, const FunctionTable &Table);

// No file of the program can name a CUDA device: the program is every file
// of the database (the files given when there is none), each fully
// analysed, or, for a file with compile errors, free of tokens that may
// name a GPU. Unknowable (a file not analysed) counts as no.
bool programIsCpuOnly(const std::vector<TUResult> &Results,
                      const clang::tooling::CompilationDatabase &DB);

// Drops the findings of checks that only matter on a GPU (RuleInfo::NeedsCuda).
void dropCudaOnlyFindings(std::vector<TUResult> &Results);

} // namespace torchtidy
