// The one list of checks; every front end builds its checks from it.
#pragma once

#include "framework/Check.h"

#include "llvm/ADT/ArrayRef.h"

namespace torchtidy {

struct CheckFactory {
  const RuleInfo *Info;
  std::unique_ptr<Check> (*Create)(const CheckOptions::Map &Options, DiagSink &Sink);
};

// Sorted by id.
llvm::ArrayRef<CheckFactory> allChecks();
const CheckFactory *findCheck(llvm::StringRef Id);

} // namespace torchtidy
