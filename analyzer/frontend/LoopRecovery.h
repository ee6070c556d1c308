// Clang drops a range-for whose range does not compile (a loader of a
// dataset class from a missing header, tqdm::range without tqdm), and the
// loop's body with it, though most of the body's statements are valid.
// Written as for (auto &batch = *loader;;), the loop and its body stay in
// the AST; the variable is of an unknown type, as in any statement that
// uses what a missing header declares.
#pragma once

#include "findings/Finding.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <string>

namespace torchtidy {

// What the rewrites changed: each file's text as written, and the places
// (line, column) on a header's line after which columns moved by two.
struct Rewrites {
  std::map<std::string, std::string> Originals;
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Moved;
};

// The user's files that hold range-for loops Clang dropped, by absolute
// name, each with the headers of the outermost such loops rewritten (a
// dropped loop inside another may compile once the outer one is back):
// "x : range)" becomes "x = range;;)". Only the header's line changes;
// with a space on either side of the ':' what follows the ')' keeps its
// column, otherwise it moves by two. Empty when no loop was dropped.
std::map<std::string, std::string> rewriteDroppedLoops(clang::ASTContext &Ctx, Rewrites &Done);

// Findings and notes as in the files as written: their source lines, and
// columns that a rewrite moved.
void showAsWritten(std::vector<Finding> &Findings, const Rewrites &Done);

} // namespace torchtidy
