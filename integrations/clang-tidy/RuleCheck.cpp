#include "RuleCheck.h"

#include "analyses/CudaUse.h"
#include "analyses/LibraryHeaders.h"
#include "analyses/PlaceFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchtidy {

RuleCheck::RuleCheck(const CheckFactory &Factory, StringRef Name, tidy::ClangTidyContext *Ctx)
    : ClangTidyCheck(Name, Ctx), Info(*Factory.Info), Errors(SharedCompileErrors::of(Ctx)) {
  for (const RuleOption &O : Info.Options)
    if (std::optional<StringRef> V = Options.get(O.Name))
      Values[Info.Id + "." + O.Name] = V->str();
  Rule = Factory.Create(Values, *this);
}

// LibTorch's (and OpenCV's) headers are system headers wherever they are
// found, as in the standalone tool: a hand-written -I would make them the
// user's code. The command's own prefixes come after these, and win.
static void libraryHeadersAreSystem(Preprocessor &PP) {
  HeaderSearch &HS = PP.getHeaderSearchInfo();
  std::vector<std::pair<std::string, bool>> Prefixes;
  for (StringRef P : libraryHeaderPrefixes())
    Prefixes.emplace_back(P.str(), true);
  for (const HeaderSearchOptions::SystemHeaderPrefix &P : HS.getHeaderSearchOpts().SystemHeaderPrefixes)
    Prefixes.emplace_back(P.Prefix, P.IsSystemHeader);
  HS.SetSystemHeaderPrefixes(Prefixes);
}

void RuleCheck::registerPPCallbacks(const SourceManager &, Preprocessor *PP, Preprocessor *) {
  libraryHeadersAreSystem(*PP);
  Errors->install(*PP);
}

// clang-tidy matches the whole AST, LibTorch's headers included; the rule
// must see what it sees in the standalone tool, so its matchers go to a
// finder of its own and this check only waits for the translation unit.
void RuleCheck::registerMatchers(MatchFinder *Finder) {
  Rule->registerMatchers(&UserCode);
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void RuleCheck::check(const MatchFinder::MatchResult &Result) { Context = Result.Context; }

// The standalone tool's traversal scope: the top-level declarations parsed
// from the user's files, never those of system headers or of a
// precompiled header.
static std::vector<Decl *> userDecls(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> Out;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!D->isImplicit() && !D->isFromASTFile() &&
        !SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      Out.push_back(D);
  return Out;
}

// Runs after clang-tidy's own traversal, so changing the traversal scope
// cannot disturb it; the scope is restored for the checks that follow.
void RuleCheck::onEndOfTranslationUnit() {
  if (!Context)
    return;
  std::vector<Decl *> Whole = Context->getTraversalScope();
  Context->setTraversalScope(userDecls(*Context));
  // clang-tidy sees one file: a check that only matters with CUDA is quiet
  // when that file cannot use it (the analyzer decides for the program,
  // with the same rule for a library).
  bool LibraryGivenDevice = takesDeviceFromCaller(*Context) && !definesMain(*Context);
  if (Info.NeedsCuda && !codeMayUseCuda(*Context) && !LibraryGivenDevice) {
    Context->setTraversalScope(Whole);
    Context = nullptr;
    return;
  }
  // The file is the program, as for the standalone tool given one file.
  FunctionTable NoOtherFiles;
  ProgramSummaries Program(NoOtherFiles);
  PlaceFactsScope PlaceFacts(*Context, &Program);
  UserCode.matchAST(*Context);
  Rule->onEndOfTranslationUnit(*Context, Errors->locations());
  Context->setTraversalScope(Whole);
  Context = nullptr;
}

void RuleCheck::storeOptions(tidy::ClangTidyOptions::OptionMap &Opts) {
  CheckOptions Effective(Info, Values);
  for (const RuleOption &O : Info.Options)
    Options.store(Opts, O.Name, Effective.get(O.Name));
}

static DiagnosticIDs::Level levelOf(Level L) {
  // The standalone text report prints a note-level rule as a warning too.
  return L == Level::Error ? DiagnosticIDs::Error : DiagnosticIDs::Warning;
}

void RuleCheck::report(const Diag &D, const SourceManager &) {
  // The standalone tool drops findings without a location; so does this.
  if (D.Loc.isInvalid())
    return;
  {
    // "%0": the message is text, not a format with %-escapes.
    DiagnosticBuilder B = diag(D.Loc, "%0", levelOf(D.Rule->DefaultLevel)) << D.Message;
    for (const DiagFix &F : D.Fixes)
      B << FixItHint::CreateReplacement(F.Range, F.Replacement);
  } // the warning is emitted here, before its notes
  for (const DiagNote &N : D.Notes)
    diag(N.Loc, "%0", DiagnosticIDs::Note) << N.Message;
}

} // namespace torchtidy
