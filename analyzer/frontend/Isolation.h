// Keeps one translation unit's failure from costing the others: a crash or
// an assertion inside Clang (or a check) ends that TU's analysis only, and
// a TU that runs past --timeout is given up while the rest go on.
//
// In-process, as libclang does: a crash unwinds the analysing thread through
// llvm::CrashRecoveryContext; a timed-out TU's thread is abandoned (threads
// cannot be killed) and the process ends with std::_Exit once the reports
// are written, so that nothing tears down state that thread still uses.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace torchtidy {

// Call once, before any analysis thread starts.
void enableCrashRecovery();

// Runs Work; on a crash returns why ("crashed (signal 11)"), else "".
std::string runIsolated(llvm::function_ref<void()> Work);

// The documented test hooks (docs/reliability.md): when the environment
// variable TORCHTIDY_TEST_CRASH, _ABORT or _HANG names the end of the main
// file's path, the analysis of that file segfaults, aborts as a failed
// assertion does, or never ends.
void runTestHooks(llvm::StringRef MainFile);

// Some analysis thread was abandoned after a timeout: exit with
// exitWithoutTeardown, not by returning from main.
bool workWasAbandoned();
void noteAbandonedWork();
[[noreturn]] void exitWithoutTeardown(int Status);

} // namespace torchtidy
