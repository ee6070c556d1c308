// The state PlaceFacts' analyses share while a PlaceFactsScope lives (one
// per thread), and the keys of the facts they export and read.
#pragma once

#include "analyses/CallIndex.h"
#include "analyses/PlaceFlow.h"
#include "analyses/ProgramSummary.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace torchtidy::placefacts {

struct State {
  clang::ASTContext &Ctx;
  ProgramSummaries *Program;
  std::string Self;  // this TU's main file, naming the facts it exports
  std::vector<clang::SourceLocation> Errors;
  std::optional<CallIndex> Index;
  std::optional<std::set<std::string>> Unresolved;
  // Answers that hold whatever is open (place::remembered).
  std::map<std::tuple<const clang::ValueDecl *, place::Place, bool>, bool> Proofs;
  // The values of private fields; none when not all are known.
  std::map<const clang::FieldDecl *, std::optional<std::vector<const clang::Expr *>>> Fields;
  // uncalledInProgram's answers, the functions it is deciding, and whether
  // the answer being decided assumed one of those uncalled.
  // (Local: decided from this TU alone.)
  std::map<std::pair<const clang::FunctionDecl *, bool>, bool> Uncalled;
  std::set<std::pair<const clang::FunctionDecl *, bool>> UncalledOpen;
  bool UncalledAssumed = false;

  CallIndex &index() {
    if (!Index)
      Index = indexCalls(Ctx);
    return *Index;
  }
  bool programHas(const std::string &Key) { return Program && Program->lookup(Key); }
  const std::set<std::string> &unresolvedNames() {
    if (!Unresolved)
      Unresolved = unresolvedCallNames(Ctx, Errors);
    return *Unresolved;
  }
};

extern thread_local State *Current;

inline constexpr place::Place Places[] = {place::Place::Host, place::Place::Device};

// Facts are keyed apart from USRs (which start with "c:"): what the calls
// of one TU pass for a parameter, and that a function returns values living
// on the host, or on a device.
inline std::string placeName(place::Place Where) {
  return Where == place::Place::Host ? "host" : "device";
}
inline std::string paramKey(const std::string &Usr, unsigned I, place::Place Where) {
  return "torchtidy-" + placeName(Where) + "-param:" + Usr + "#" + std::to_string(I) + "@";
}
inline std::string returnsKey(const std::string &Usr, place::Place Where) {
  return "torchtidy-" + placeName(Where) + "-returns:" + Usr;
}
inline std::string memberKey(const std::string &Usr, const clang::FieldDecl &F, place::Place Where) {
  return "torchtidy-" + placeName(Where) + "-member:" + Usr + "." + F.getNameAsString();
}
// That a method of a class with private tensor fields is defined.
inline std::string definedKey(const std::string &Usr) { return "torchtidy-defined:" + Usr; }
// Whether one TU calls a function only outside loops.
inline std::string calledKey(const std::string &Usr) { return "torchtidy-called-once:" + Usr + "@"; }
// That a TU defines main(); that it calls a name without Clang resolving it.
inline const std::string MainKey = "torchtidy-main@";
inline std::string unresolvedKey(llvm::StringRef Name) {
  return "torchtidy-unresolved:" + Name.str() + "@";
}

// Returns are followed for any function of the code, virtual ones too (the
// override the call names, as in the file itself), but not into templates.
bool returnsFollowed(const clang::FunctionDecl &FD);

// Parameters are followed for functions whose calls the code shows: not a
// virtual method, a constructor, a lambda or a library's function. A
// module's forward is called through its holder (module(x), a call of the
// forward here) or by a Sequential or AnyModule it was put in (its address
// taken).
bool followed(const clang::FunctionDecl &FD);

// A tensor, or a container of tensors.
bool tracked(clang::QualType T);

// The call is in a function defined in a header that this TU shows uncalled:
// nothing here calls it but functions like it. Every file that calls it
// parses its body and has the call; read from no other file's facts.
bool inUncalledHeaderFunction(const clang::CallExpr &C);

} // namespace torchtidy::placefacts
