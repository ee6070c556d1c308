#include "config/CheckGlob.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace torchtidy {

CheckGlob CheckGlob::parse(llvm::StringRef Text, std::string &Error) {
  CheckGlob G;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    Part = Part.trim();
    if (Part.empty())
      continue;
    Item I;
    I.Positive = !Part.consume_front("-");
    Part = Part.trim();
    I.Glob = Part.str();
    std::string Re = "^";
    for (char C : Part) {
      if (C == '*')
        Re += ".*";
      else if (llvm::isAlnum(C) || C == '-' || C == '_' || C == '.')
        Re += llvm::Regex::escape(std::string(1, C));
      else {
        Error = "invalid character '" + std::string(1, C) + "' in check glob '" + Part.str() + "'";
        return G;
      }
    }
    I.Re = std::make_shared<llvm::Regex>(Re + "$");
    G.Items.push_back(std::move(I));
  }
  return G;
}

bool CheckGlob::enabled(llvm::StringRef CheckId) const {
  bool On = false;
  for (const Item &I : Items)
    if (I.Re->match(CheckId))
      On = I.Positive;
  return On;
}

} // namespace torchtidy
