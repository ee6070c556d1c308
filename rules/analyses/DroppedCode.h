// The code Clang dropped from a translation unit with errors: it leaves
// out the statements and declarations it cannot build, but their tokens
// are still in the files.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <vector>

namespace torchtidy {

// The text at offsets [Begin, End) of a file.
struct TextSpan {
  clang::FileID File;
  unsigned Begin = 0, End = 0;
};

// The code Clang may have dropped for an error: walking down from the
// user's top-level declarations through namespaces, classes, function
// bodies and blocks to the innermost list of declarations or statements
// around the error, the text between the ones before and after it that
// Clang kept; or the one that holds it, when that one was kept.
struct DroppedCode {
  TextSpan Text;
  // The kept statement around Text: the block whose statements it lies
  // between, or the one it is all of; null among declarations.
  const clang::Stmt *Around = nullptr;
  // The kept statement or declaration Text is all of: the AST has it, but
  // may lack parts of it.
  std::optional<clang::DynTypedNode> Kept;
};

// The code dropped for each error in a user's file (one in a LibTorch or
// standard header drops none of the user's code); none for an error it
// cannot place (no location, a preamble's file).
std::vector<std::optional<DroppedCode>> droppedCode(clang::ASTContext &Ctx,
                                                    llvm::ArrayRef<clang::SourceLocation> Errors);

// A local whose type Clang lost to an error (its class is in a missing
// header): Clang drops every use of it, silently (no error points there).
// Code is the text from its declaration to the end of its function's body,
// Around and Kept that body.
struct LostLocal {
  const clang::VarDecl *Var;
  DroppedCode Code;
};
std::vector<LostLocal> lostLocals(clang::ASTContext &Ctx);

// Where the AST has a member's name (x.name, x->name, resolved or not)
// under Node, as written in the file.
llvm::DenseSet<clang::SourceLocation> memberNamesIn(const clang::DynTypedNode &Node,
                                                    const clang::SourceManager &SM);

// While one lives (one per thread), the ranges of SM's files that the
// preprocessor skipped (#if 0, an #ifdef not taken): no code, whatever
// their text says. The frontend records them as it parses.
class SkippedText {
public:
  SkippedText(const clang::SourceManager &SM, llvm::ArrayRef<clang::SourceRange> Ranges);
  ~SkippedText();
};

// Text's tokens as the raw lexer reads them (comments and text the
// preprocessor skipped left out); none when its file cannot be read.
std::optional<std::vector<clang::Token>> rawTokens(const clang::SourceManager &SM,
                                                   const clang::LangOptions &LO,
                                                   const TextSpan &Text);

} // namespace torchtidy
