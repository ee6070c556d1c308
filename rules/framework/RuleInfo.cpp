#include "framework/RuleInfo.h"
#include "framework/Check.h"

namespace torchtidy {

const char *levelName(Level L) {
  switch (L) {
  case Level::Note: return "note";
  case Level::Warning: return "warning";
  case Level::Error: return "error";
  }
  return "warning";
}

const char *precisionName(Precision P) {
  switch (P) {
  case Precision::High: return "high";
  case Precision::Medium: return "medium";
  case Precision::Low: return "low";
  }
  return "high";
}

std::string CheckOptions::get(llvm::StringRef Name) const {
  auto It = Values.find(Rule.Id + "." + Name.str());
  if (It != Values.end())
    return It->second;
  for (const RuleOption &O : Rule.Options)
    if (O.Name == Name)
      return O.Default;
  return "";
}

bool CheckOptions::getBool(llvm::StringRef Name) const {
  std::string V = llvm::StringRef(get(Name)).lower();
  return V == "true" || V == "1" || V == "yes" || V == "on";
}

long CheckOptions::getInt(llvm::StringRef Name) const {
  long Out = 0;
  return llvm::StringRef(get(Name)).getAsInteger(10, Out) ? 0 : Out;
}

} // namespace torchtidy
