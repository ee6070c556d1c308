// The base of every check: clang-tidy's shape (registerMatchers + check),
// reporting through a sink so that rules know nothing of output formats.
#pragma once

#include "framework/RuleInfo.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace torchtidy {

// A place in a file the current translation unit did not parse (another
// file of the program), as file, line and column.
struct FilePos {
  std::string File;
  unsigned Line = 0, Column = 0;
};

struct DiagNote {
  clang::SourceLocation Loc;  // invalid when the note points into another file
  std::string Message;
  FilePos Elsewhere;
};

struct DiagFix {
  clang::CharSourceRange Range;
  std::string Replacement;
};

struct Diag {
  const RuleInfo *Rule = nullptr;
  clang::SourceLocation Loc;
  std::string Message;
  std::vector<DiagNote> Notes;
  std::vector<DiagFix> Fixes;
};

class ProgramSummaries;

// Receives a check's findings; the analyzer and the clang-tidy plugin each
// have their own. The analyzer's also knows the rest of the program.
class DiagSink {
public:
  virtual ~DiagSink() = default;
  virtual void report(const Diag &D, const clang::SourceManager &SM) = 0;
  // What the other translation units' functions do; null when unknown.
  virtual ProgramSummaries *program() { return nullptr; }
};

// Check options as "<check-id>.<Name>" -> value text.
class CheckOptions {
public:
  using Map = std::map<std::string, std::string>;
  CheckOptions(const RuleInfo &Rule, const Map &Values)
      : Rule(Rule), Values(Values) {}
  std::string get(llvm::StringRef Name) const;
  bool getBool(llvm::StringRef Name) const;
  long getInt(llvm::StringRef Name) const;

private:
  const RuleInfo &Rule;
  const Map &Values;
};

// Builds one finding; it is reported when the builder goes out of scope,
// as clang-tidy's DiagnosticBuilder does.
class DiagBuilder {
public:
  DiagBuilder(DiagSink &Sink, const clang::SourceManager &SM, Diag D)
      : Sink(Sink), SM(SM), D(std::move(D)) {}
  DiagBuilder(const DiagBuilder &) = delete;
  DiagBuilder(DiagBuilder &&Other) noexcept
      : Sink(Other.Sink), SM(Other.SM), D(std::move(Other.D)) {
    Other.Active = false;
  }
  ~DiagBuilder() {
    if (Active)
      Sink.report(D, SM);
  }
  DiagBuilder &note(clang::SourceLocation Loc, llvm::StringRef Msg) {
    D.Notes.push_back({Loc, Msg.str(), {}});
    return *this;
  }
  DiagBuilder &note(const FilePos &Where, llvm::StringRef Msg) {
    D.Notes.push_back({clang::SourceLocation(), Msg.str(), Where});
    return *this;
  }
  DiagBuilder &fix(clang::CharSourceRange Range, llvm::StringRef Text) {
    D.Fixes.push_back({Range, Text.str()});
    return *this;
  }

private:
  DiagSink &Sink;
  const clang::SourceManager &SM;
  Diag D;
  bool Active = true;
};

class Check : public clang::ast_matchers::MatchFinder::MatchCallback {
public:
  Check(const RuleInfo &Info, const CheckOptions::Map &Options, DiagSink &Sink)
      : Info(Info), Options(Info, Options), Sink(Sink) {}

  const RuleInfo &info() const { return Info; }

  virtual void registerMatchers(clang::ast_matchers::MatchFinder *Finder) = 0;
  virtual void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) = 0;
  // Called once per translation unit after all matches, for checks that
  // collect facts first and decide at the end. Errors: where Clang's errors
  // are, for the code it dropped; empty where they are not known (under
  // clang-tidy).
  virtual void onEndOfTranslationUnit(clang::ASTContext &,
                                      llvm::ArrayRef<clang::SourceLocation> /*Errors*/) {}

  void run(const clang::ast_matchers::MatchFinder::MatchResult &Result) final {
    check(Result);
  }
  llvm::StringRef getID() const override { return Info.Id; }

protected:
  DiagBuilder diag(const clang::SourceManager &SM, clang::SourceLocation Loc,
                   llvm::StringRef Message) {
    Diag D;
    D.Rule = &Info;
    D.Loc = Loc;
    D.Message = Message.str();
    return DiagBuilder(Sink, SM, std::move(D));
  }

  DiagSink &sink() { return Sink; }

  const RuleInfo &Info;
  CheckOptions Options;

private:
  DiagSink &Sink;
};

} // namespace torchtidy
