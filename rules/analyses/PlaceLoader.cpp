// Provenance through LibTorch's data loader: the C++ DataLoader neither pins
// nor moves what its dataset gives, and LibTorch's own transforms (Stack,
// Normalize) keep it where it is, so a batch's fields live where the
// dataset's get() puts them. Read from the loader's type, so a loader
// passed to a function or kept in a member is followed too.
#include "analyses/PlaceFlow.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace torchtidy::place {

static const ClassTemplateSpecializationDecl *torchTemplate(QualType T, StringRef Name) {
  const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  return S && S->getIdentifier() && S->getName() == Name && isTorchDecl(S) ? S : nullptr;
}

static QualType typeArg(const ClassTemplateSpecializationDecl &S, unsigned I) {
  const TemplateArgumentList &Args = S.getTemplateArgs();
  return I < Args.size() && Args[I].getKind() == TemplateArgument::Type ? Args[I].getAsType()
                                                                         : QualType();
}

// The dataset under LibTorch's transforms: MapDataset<Source, T> with T
// one of LibTorch's own (Lambda runs the user's code, so it ends the walk).
static const CXXRecordDecl *sourceDataset(QualType Dataset) {
  for (int Steps = 0; Steps < 16 && !Dataset.isNull(); ++Steps) {
    const auto *Map = torchTemplate(Dataset, "MapDataset");
    if (!Map)
      return Dataset->getAsCXXRecordDecl();
    QualType T = typeArg(*Map, 1);
    const CXXRecordDecl *Transform = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
    if (!Transform || !isTorchDecl(Transform) || !Transform->getIdentifier() ||
        Transform->getName() == "Lambda" || Transform->getName() == "BatchLambda")
      return nullptr;
    Dataset = typeArg(*Map, 0);
  }
  return nullptr;
}

// The user's get(index) of a dataset class that leaves batching to
// LibTorch (no get_batch of its own); null otherwise.
static const CXXMethodDecl *exampleGetter(const CXXRecordDecl &RD) {
  const CXXMethodDecl *Get = nullptr;
  for (const CXXMethodDecl *M : RD.methods()) {
    if (!M->getIdentifier())
      continue;
    if (M->getName() == "get_batch")
      return nullptr;
    if (M->getName() == "get" && M->getNumParams() == 1)
      Get = M;
  }
  return Get;
}

// The field of Record named as F is.
static const FieldDecl *sameField(const CXXRecordDecl *Record, const FieldDecl &F) {
  if (!Record)
    return nullptr;
  for (const FieldDecl *G : Record->fields())
    if (G->getDeclName() == F.getDeclName())
      return G;
  return nullptr;
}

bool loadedLives(const Expr &Range, const FieldDecl &F, int Depth, Question &Q) {
  const auto *Loader = torchTemplate(Range.getType(), "StatelessDataLoader");
  const CXXRecordDecl *Source = Loader ? sourceDataset(typeArg(*Loader, 0)) : nullptr;
  if (!Source || !Source->hasDefinition())
    return false;
  if (isTorchDecl(Source))  // MNIST reads its files into host tensors
    return Source->getIdentifier() && Source->getName() == "MNIST" && Q.Where == Place::Host;
  const CXXMethodDecl *Get = exampleGetter(*Source->getDefinition());
  const FieldDecl *Field =
      Get ? sameField(Get->getReturnType()->getAsCXXRecordDecl(), F) : nullptr;
  return Field && functionReturnsThere(*Get, Depth + 1, Q, Field);
}

} // namespace torchtidy::place
