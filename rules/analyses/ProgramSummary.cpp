#include "analyses/ProgramSummary.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

using namespace clang;

namespace torchtidy {

const std::vector<ReachedEffect> *ProgramSummaries::lookup(const std::string &Usr) {
  if (Usr.empty())
    return nullptr;
  Asked.insert(Usr);
  auto It = Others.find(Usr);
  return It == Others.end() ? nullptr : &It->second;
}

// A prefix question is recorded as the prefix and a mark for its kind.
static const char AllHoldMark = '*', SomeAllHoldMark = '+', SomeMark = '?', ContentMark = '~';
// Between a prefix and the end of the keys its question leaves out.
static const std::string ExceptMark = "\x1f";

static char markOf(FactQuestion Q) {
  switch (Q) {
  case FactQuestion::AllHold:
    return AllHoldMark;
  case FactQuestion::SomeAllHold:
    return SomeAllHoldMark;
  case FactQuestion::Some:
    return SomeMark;
  case FactQuestion::Content:
    return ContentMark;
  }
  return SomeMark;
}

std::vector<std::pair<std::string, const std::vector<ReachedEffect> *>>
ProgramSummaries::factsUnder(const std::string &Prefix, FactQuestion Q, const std::string &Except) {
  std::string Ask = Prefix + (Except.empty() ? "" : ExceptMark + Except) + markOf(Q);
  Asked.insert(Ask);
  std::vector<std::pair<std::string, const std::vector<ReachedEffect> *>> Out;
  forEachAsked(Others, Ask, [&](const std::string &Key, const std::vector<ReachedEffect> &E) {
    Out.push_back({Key, &E});
  });
  return Out;
}

// Function USRs (which may end in '*') start with "c:", facts' keys never.
static bool isQuestion(llvm::StringRef Ask) {
  return !Ask.starts_with("c:") && !Ask.empty() &&
         (Ask.back() == AllHoldMark || Ask.back() == SomeAllHoldMark || Ask.back() == SomeMark ||
          Ask.back() == ContentMark);
}

void forEachAsked(const FunctionTable &Table, const std::string &Asked,
                  llvm::function_ref<void(const std::string &, const std::vector<ReachedEffect> &)> F) {
  if (!isQuestion(Asked)) {
    auto It = Table.find(Asked);
    if (It != Table.end())
      F(It->first, It->second);
    return;
  }
  auto [Key, Except] = llvm::StringRef(Asked).drop_back().split(ExceptMark);
  for (auto It = Table.lower_bound(Key.str()); It != Table.end() && llvm::StringRef(It->first).starts_with(Key); ++It)
    if (Except.empty() || !llvm::StringRef(It->first).ends_with(Except))
      F(It->first, It->second);
}

// The answer to a prefix question over Table's facts.
static bool answer(const FunctionTable &Table, const std::string &Ask) {
  bool Some = false, AllHold = true;
  forEachAsked(Table, Ask, [&](const std::string &, const std::vector<ReachedEffect> &Facts) {
    Some = true;
    AllHold &= !Facts.empty() && Facts.front().Op.What == FactHolds;
  });
  if (Ask.back() == SomeMark)
    return Some;
  return AllHold && (Some || Ask.back() == AllHoldMark);
}

std::string usrOf(const Decl *D) {
  llvm::SmallString<128> Usr;
  if (index::generateUSRForDecl(D, Usr))
    return "";
  return Usr.str().str();
}

namespace {
class Definitions : public RecursiveASTVisitor<Definitions> {
public:
  std::vector<const FunctionDecl *> Found;
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !FD->isDependentContext())
      Found.push_back(FD);
    return true;
  }
  // Only what another file can name: no function bodies' local classes.
  bool TraverseStmt(Stmt *, DataRecursionQueue * = nullptr) { return true; }
};

} // namespace

FunctionTable exportSummaries(CallSummaries &S, llvm::ArrayRef<Decl *> Decls,
                              llvm::function_ref<FilePos(SourceLocation)> Where) {
  Definitions Defs;
  for (Decl *D : Decls)
    Defs.TraverseDecl(D);
  FunctionTable Out;
  for (const FunctionDecl *FD : Defs.Found) {
    // Another file can only call what has external linkage, or, virtually,
    // the method an override of a file-local class overrides.
    std::vector<std::string> Keys;
    if (FD->isExternallyVisible())
      Keys.push_back(usrOf(FD));
    std::vector<const CXXMethodDecl *> Bases;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      overriddenMethods(MD, Bases);
    for (const CXXMethodDecl *B : Bases)
      Keys.push_back(usrOf(B));
    llvm::erase_if(Keys, [](const std::string &K) { return K.empty(); });
    if (Keys.empty())
      continue;
    std::vector<ReachedEffect> Effects = S.summaryOf(FD);
    locateElsewhere(Effects, Where);
    for (const std::string &K : Keys)
      for (const ReachedEffect &E : Effects)
        CallSummaries::merge(Out[K], E);
  }
  return Out;
}

void locateElsewhere(std::vector<ReachedEffect> &Effects,
                     llvm::function_ref<FilePos(SourceLocation)> Where) {
  for (ReachedEffect &E : Effects) {
    E.Op.Site = nullptr;
    if (E.Op.Loc.isValid())
      E.Op.Elsewhere = Where(E.Op.Loc);
    E.Op.Loc = SourceLocation();
    for (ChainLink &L : E.Chain) {
      if (L.Loc.isValid())
        L.Elsewhere = Where(L.Loc);
      L.Loc = SourceLocation();
    }
  }
}

void mergeInto(FunctionTable &Into, const FunctionTable &From) {
  for (const auto &[Usr, Effects] : From)
    for (const ReachedEffect &E : Effects)
      CallSummaries::merge(Into[Usr], E);
}

static void describe(const FilePos &P, std::string &Out) {
  Out += P.File + ":" + std::to_string(P.Line) + ":" + std::to_string(P.Column) + "|";
}

std::string digestOf(const FunctionTable &Table, const std::set<std::string> &Asked) {
  std::string Out;
  for (const std::string &Ask : Asked) {
    if (isQuestion(Ask) && Ask.back() != ContentMark) {
      Out += Ask + (answer(Table, Ask) ? "=yes|" : "=no|");
      continue;
    }
    Out += Ask + "=";
    forEachAsked(Table, Ask, [&](const std::string &Usr, const std::vector<ReachedEffect> &Effects) {
    Out += Usr + "{";
    for (const ReachedEffect &E : Effects) {
      Out += std::to_string(int(E.Op.Kind)) + (E.InLoop ? "L" : "") + "W" +
             std::to_string(E.WhenParam) + "C" + std::to_string(int(E.When)) + "B" + std::to_string(E.Callback) + E.Op.What + "|" + E.Op.Detail + "|";
      describe(E.Op.Elsewhere, Out);
      for (const ChainLink &L : E.Chain) {
        Out += L.Callee + (L.Virtual ? "V" : "") + (L.Overriders ? "O" : "") + (L.Handed ? "H" : "");
        describe(L.Elsewhere, Out);
      }
    }
    Out += "}";
  });
  }
  return llvm::utohexstr(llvm::xxh3_64bits(Out));
}

} // namespace torchtidy
