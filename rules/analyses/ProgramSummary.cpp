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

std::vector<std::pair<std::string, const std::vector<ReachedEffect> *>>
ProgramSummaries::lookupPrefix(const std::string &Prefix) {
  Asked.insert(Prefix + "*");
  std::vector<std::pair<std::string, const std::vector<ReachedEffect> *>> Out;
  forEachAsked(Others, Prefix + "*", [&](const std::string &Key, const std::vector<ReachedEffect> &E) {
    Out.push_back({Key, &E});
  });
  return Out;
}

void forEachAsked(const FunctionTable &Table, const std::string &Asked,
                  llvm::function_ref<void(const std::string &, const std::vector<ReachedEffect> &)> F) {
  llvm::StringRef Key(Asked);
  if (!Key.consume_back("*")) {
    auto It = Table.find(Asked);
    if (It != Table.end())
      F(It->first, It->second);
    return;
  }
  for (auto It = Table.lower_bound(Key.str()); It != Table.end() && llvm::StringRef(It->first).starts_with(Key); ++It)
    F(It->first, It->second);
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

// The methods MD overrides, directly or further up.
void overridden(const CXXMethodDecl *MD, std::vector<const CXXMethodDecl *> &Out) {
  for (const CXXMethodDecl *O : MD->overridden_methods()) {
    Out.push_back(O);
    overridden(O, Out);
  }
}
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
      overridden(MD, Bases);
    for (const CXXMethodDecl *B : Bases)
      Keys.push_back(usrOf(B));
    llvm::erase_if(Keys, [](const std::string &K) { return K.empty(); });
    if (Keys.empty())
      continue;
    std::vector<ReachedEffect> Effects = S.summaryOf(FD);
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
    for (const std::string &K : Keys)
      for (const ReachedEffect &E : Effects)
        CallSummaries::merge(Out[K], E);
  }
  return Out;
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
  for (const std::string &Ask : Asked)
    forEachAsked(Table, Ask, [&](const std::string &Usr, const std::vector<ReachedEffect> &Effects) {
    Out += Usr + "{";
    for (const ReachedEffect &E : Effects) {
      Out += std::to_string(int(E.Op.Kind)) + (E.InLoop ? "L" : "") + E.Op.What + "|" +
             E.Op.Detail + "|";
      describe(E.Op.Elsewhere, Out);
      for (const ChainLink &L : E.Chain) {
        Out += L.Callee + (L.Virtual ? "V" : "") + (L.Overriders ? "O" : "");
        describe(L.Elsewhere, Out);
      }
    }
    Out += "}";
  });
  return llvm::utohexstr(llvm::xxh3_64bits(Out));
}

} // namespace torchtidy
