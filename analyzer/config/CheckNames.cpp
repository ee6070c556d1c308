#include "config/CheckNames.h"
#include "config/CheckGlob.h"
#include "checks/Registry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace torchtidy {

std::string checkOptionError(llvm::StringRef Key) {
  for (const CheckFactory &F : allChecks()) {
    llvm::StringRef Id = F.Info->Id;
    if (!Key.starts_with(Id) || !Key.drop_front(Id.size()).starts_with("."))
      continue;
    llvm::StringRef Name = Key.drop_front(Id.size() + 1);
    if (llvm::any_of(F.Info->Options, [&](const RuleOption &O) { return O.Name == Name; }))
      return "";
    std::vector<std::string> Names;
    for (const RuleOption &O : F.Info->Options)
      Names.push_back(O.Name);
    return "check '" + Id.str() + "' has no option '" + Name.str() + "' (" +
           (Names.empty() ? std::string("it has none") : "it has " + llvm::join(Names, ", ")) + ")";
  }
  return "'" + Key.str() + "' names no check's option (expected '<check-id>.<Option>')";
}

std::vector<std::string> globsMatchingNoCheck(llvm::StringRef Globs) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Globs.split(Parts, ',', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Messages;
  for (llvm::StringRef Part : Parts) {
    llvm::StringRef Glob = Part.trim();
    Glob.consume_front("-");
    Glob = Glob.trim();
    std::string Error;
    CheckGlob G = CheckGlob::parse(Glob, Error);
    // '-*' and '*' are how every configuration starts over; other-module
    // globs ('clang-analyzer-*') come from shared clang-tidy files.
    if (Glob.empty() || !Error.empty() || Glob == "*" || !Glob.starts_with("torch"))
      continue;
    if (llvm::any_of(allChecks(), [&](const CheckFactory &F) { return G.enabled(F.Info->Id); }))
      continue;
    std::string Message = "'" + Glob.str() + "' matches no check";
    llvm::StringRef Closest;
    unsigned Best = 0;
    for (const CheckFactory &F : allChecks()) {
      unsigned D = Glob.edit_distance(F.Info->Id);
      if (Closest.empty() || D < Best) {
        Closest = F.Info->Id;
        Best = D;
      }
    }
    if (!Closest.empty() && Best <= std::max<size_t>(3, Glob.size() / 4))
      Message += "; did you mean '" + Closest.str() + "'?";
    Messages.push_back(std::move(Message));
  }
  return Messages;
}

} // namespace torchtidy
