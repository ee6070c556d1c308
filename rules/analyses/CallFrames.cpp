#include "analyses/CallFrames.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy {

using Frame = std::pair<const CallExpr *, const FunctionDecl *>;
static thread_local std::vector<Frame> Frames;

CallFrame::CallFrame(const CallExpr &Call, const FunctionDecl &Def) {
  Frames.push_back({&Call, Def.getCanonicalDecl()});
}

CallFrame::~CallFrame() { Frames.pop_back(); }

HiddenFrames::HiddenFrames(size_t From) {
  if (From < Frames.size()) {
    Hidden.assign(Frames.begin() + From, Frames.end());
    Frames.resize(From);
  }
}

HiddenFrames::~HiddenFrames() { Frames.insert(Frames.end(), Hidden.begin(), Hidden.end()); }

const Expr *boundArgument(const ParmVarDecl &P, size_t &Outside) {
  const auto *FD = dyn_cast<FunctionDecl>(P.getDeclContext());
  if (!FD)
    return nullptr;
  FD = FD->getCanonicalDecl();
  for (size_t I = Frames.size(); I-- > 0;) {
    auto [Call, Def] = Frames[I];
    if (Def != FD)
      continue;
    // A lambda's or functor's operator() call lists the object first.
    unsigned Shift = isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Def) ? 1 : 0;
    unsigned Index = P.getFunctionScopeIndex() + Shift;
    if (Index >= Call->getNumArgs())
      return nullptr;
    Outside = I;
    const Expr *Arg = Call->getArg(Index);
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
      return Default->getExpr();
    return Arg;
  }
  return nullptr;
}

} // namespace torchtidy
