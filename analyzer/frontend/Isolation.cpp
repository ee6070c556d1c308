#include "frontend/Isolation.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace torchtidy {

static std::atomic<bool> Abandoned{false};

void enableCrashRecovery() { llvm::CrashRecoveryContext::Enable(); }

std::string runIsolated(llvm::function_ref<void()> Work) {
  llvm::CrashRecoveryContext CRC;
  // No core dump or backtrace per TU: the failure is reported like any other.
  CRC.DumpStackAndCleanupOnFailure = false;
  if (CRC.RunSafely(Work))
    return "";
  int Code = CRC.RetCode;
  // On POSIX RetCode is 128 + the signal.
  return Code > 128 ? "crashed (signal " + std::to_string(Code - 128) + ")"
                    : "crashed (exit code " + std::to_string(Code) + ")";
}

static bool hookNames(const char *Var, llvm::StringRef MainFile) {
  const char *V = std::getenv(Var);
  return V && *V && MainFile.ends_with(V);
}

void runTestHooks(llvm::StringRef MainFile) {
  if (hookNames("TORCHTIDY_TEST_CRASH", MainFile))
    std::raise(SIGSEGV);
  if (hookNames("TORCHTIDY_TEST_ABORT", MainFile))
    std::abort();
  if (hookNames("TORCHTIDY_TEST_HANG", MainFile))
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
}

bool workWasAbandoned() { return Abandoned; }
void noteAbandonedWork() { Abandoned = true; }

void exitWithoutTeardown(int Status) {
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  std::_Exit(Status);
}

} // namespace torchtidy
