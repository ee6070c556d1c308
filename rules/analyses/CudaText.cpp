#include "analyses/CudaText.h"
#include "analyses/DroppedCode.h"
#include "analyses/TorchTypes.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <cctype>

using namespace clang;

namespace torchtidy {
namespace {

bool identifierMayNameGpu(llvm::StringRef Name) {
  static const llvm::StringSet<> Exact = {"is_available", "kHIP", "kMPS", "kXLA", "kXPU",
                                          "kVulkan", "kMTIA", "kPrivateUse1"};
  return Exact.contains(Name) || Name.contains_insensitive("cuda") ||
         Name.contains_insensitive("device") || Name.contains_insensitive("gpu") ||
         Name.contains_insensitive("nccl");
}

// A word of the literal is a device's name ("cuda:0", "mps") or starts like
// one ("GPUs", "use_gpu"); "timestamps" or "relationship" are no device.
bool literalMayNameGpu(llvm::StringRef Text) {
  auto NotWord = [](char C) { return !std::isalnum(static_cast<unsigned char>(C)); };
  for (Text = Text.drop_while(NotWord); !Text.empty(); Text = Text.drop_while(NotWord)) {
    llvm::StringRef W = Text.take_until(NotWord);
    if (W.starts_with_insensitive("cuda") || W.starts_with_insensitive("gpu") ||
        W.equals_insensitive("mps") || W.equals_insensitive("hip") || W.equals_insensitive("xpu"))
      return true;
    Text = Text.drop_front(W.size());
  }
  return false;
}

// Tokens[I], a name with "device" in it, names no GPU: a tensor's or a
// module's own device ('.device()', '->device()'), or the CPU as the one
// argument ('.device(torch::kCPU)', 'torch::Device("cpu")').
bool namesNoOtherDevice(llvm::ArrayRef<Token> Tokens, size_t I) {
  auto Is = [&](size_t K, tok::TokenKind Kind) { return K < Tokens.size() && Tokens[K].is(Kind); };
  auto Named = [&](size_t K, llvm::StringRef Name) {
    return Is(K, tok::raw_identifier) && Tokens[K].getRawIdentifier() == Name;
  };
  if (!Is(I + 1, tok::l_paren))
    return false;
  if (Is(I + 2, tok::r_paren))
    return I > 0 && Tokens[I - 1].isOneOf(tok::period, tok::arrow);
  size_t K = I + 2;
  if ((Named(K, "torch") || Named(K, "at") || Named(K, "c10")) && Is(K + 1, tok::coloncolon))
    K += 2;
  bool Cpu = Named(K, "kCPU") || (Is(K, tok::string_literal) &&
                                  llvm::StringRef(Tokens[K].getLiteralData(), Tokens[K].getLength()) == "\"cpu\"");
  return Cpu && Is(K + 1, tok::r_paren);
}

// Known: the names of device variables the AST holds, whose values it
// shows; the text using one (not assigning it) names no other device.
bool spanMayNameGpu(const SourceManager &SM, const LangOptions &LO, const TextSpan &S,
                    const llvm::StringSet<> &Known = {}) {
  std::optional<std::vector<Token>> Tokens = rawTokens(SM, LO, S);
  if (!Tokens)
    return true; // unreadable: nothing can be proved
  for (size_t I = 0; I < Tokens->size(); ++I) {
    const Token &T = (*Tokens)[I];
    if (T.is(tok::raw_identifier) && Known.contains(T.getRawIdentifier()) &&
        !(I + 1 < Tokens->size() && (*Tokens)[I + 1].is(tok::equal)))
      continue;
    if (T.is(tok::raw_identifier) && namesNoOtherDevice(*Tokens, I))
      continue;
    if ((T.is(tok::raw_identifier) && identifierMayNameGpu(T.getRawIdentifier())) ||
        (tok::isStringLiteral(T.getKind()) &&
         literalMayNameGpu(llvm::StringRef(T.getLiteralData(), T.getLength()))))
      return true;
  }
  return false;
}

// Every file of the user's (outside system headers, those of a loaded
// preamble included), whole.
bool userTextMayNameGpu(const SourceManager &SM, const LangOptions &LO) {
  llvm::DenseSet<const FileEntry *> Seen;
  auto MayName = [&](const SrcMgr::SLocEntry &E) {
    if (!E.isFile() || SrcMgr::isSystem(E.getFile().getFileCharacteristic()))
      return false;
    OptionalFileEntryRef File = E.getFile().getContentCache().OrigEntry;
    if (!File || !Seen.insert(&File->getFileEntry()).second)
      return false;
    // A file entry's offset is its start location's raw encoding.
    FileID FID = SM.getFileID(SourceLocation::getFromRawEncoding(E.getOffset()));
    return spanMayNameGpu(SM, LO, TextSpan{FID, 0, ~0u});
  };
  for (unsigned I = 0; I < SM.local_sloc_entry_size(); ++I)
    if (MayName(SM.getLocalSLocEntry(I)))
      return true;
  // Project headers held by a preamble.
  for (unsigned I = 0; I < SM.loaded_sloc_entry_size(); ++I) {
    bool Invalid = false;
    const SrcMgr::SLocEntry &E = SM.getLoadedSLocEntry(I, &Invalid);
    if (Invalid || MayName(E))
      return true;
  }
  return false;
}

// The names of the user's device variables (Device, DeviceType) that the
// AST holds.
class KeptDevices : public RecursiveASTVisitor<KeptDevices> {
public:
  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    QualType T = D->getType().getNonReferenceType();
    if (isa<VarDecl, FieldDecl>(D) && D->getIdentifier() && !D->isInvalidDecl() &&
        (isDeviceType(T) || isDeviceTypeEnum(T)))
      Names.insert(D->getName());
    return true;
  }
  llvm::StringSet<> Names;
};

llvm::StringSet<> keptDeviceVariables(ASTContext &Ctx) {
  KeptDevices V;
  for (Decl *D : Ctx.getTraversalScope())
    V.TraverseDecl(D);
  return std::move(V.Names);
}

// Tokens[I..] spell '.cuda()', '->cuda()' or the same with a number.
bool isCudaCall(llvm::ArrayRef<Token> Tokens, size_t I) {
  auto Is = [&](size_t K, tok::TokenKind Kind) { return K < Tokens.size() && Tokens[K].is(Kind); };
  if (!Is(I, tok::period) && !Is(I, tok::arrow))
    return false;
  if (!Is(I + 1, tok::raw_identifier) || Tokens[I + 1].getRawIdentifier() != "cuda" ||
      !Is(I + 2, tok::l_paren))
    return false;
  return Is(I + 3, tok::r_paren) || (Is(I + 3, tok::numeric_constant) && Is(I + 4, tok::r_paren));
}

// A '%' among the tokens of the statement before Tokens[I].
bool afterModulo(llvm::ArrayRef<Token> Tokens, size_t I) {
  for (size_t K = I; K-- > 0;) {
    if (Tokens[K].isOneOf(tok::semi, tok::l_brace, tok::r_brace))
      return false;
    if (Tokens[K].is(tok::percent))
      return true;
  }
  return false;
}

// Tokens[I..] spell '.to(' or '->to(' with the device type kCUDA, as is
// or qualified (torch::kCUDA, at::kCUDA, c10::kCUDA), as the first
// argument: the range of that argument.
std::optional<CharSourceRange> cudaMoveDestination(llvm::ArrayRef<Token> Tokens, size_t I) {
  auto Is = [&](size_t K, tok::TokenKind Kind) { return K < Tokens.size() && Tokens[K].is(Kind); };
  auto Named = [&](size_t K, llvm::StringRef Name) {
    return Is(K, tok::raw_identifier) && Tokens[K].getRawIdentifier() == Name;
  };
  if ((!Is(I, tok::period) && !Is(I, tok::arrow)) || !Named(I + 1, "to") || !Is(I + 2, tok::l_paren))
    return std::nullopt;
  size_t Begin = I + 3, K = Begin;
  if ((Named(K, "torch") || Named(K, "at") || Named(K, "c10")) && Is(K + 1, tok::coloncolon))
    K += 2;
  if (!Named(K, "kCUDA") || !(Is(K + 1, tok::r_paren) || Is(K + 1, tok::comma)))
    return std::nullopt;
  return CharSourceRange::getTokenRange(Tokens[Begin].getLocation(), Tokens[K].getLocation());
}

} // namespace

bool droppedTextMayNameGpu(ASTContext &Ctx, llvm::ArrayRef<SourceLocation> Errors) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<llvm::StringSet<>> Known;
  for (const std::optional<DroppedCode> &D : droppedCode(Ctx, Errors)) {
    if (!D)
      return userTextMayNameGpu(SM, Ctx.getLangOpts());
    if (!Known)
      Known = keptDeviceVariables(Ctx);
    if (spanMayNameGpu(SM, Ctx.getLangOpts(), D->Text, *Known))
      return true;
  }
  return false;
}

CudaInText cudaInText(const SourceManager &SM, const LangOptions &LO, const TextSpan &Text) {
  static const llvm::StringSet<> CudaTests = {"is_available", "device_count", "hasCUDA",
                                               "is_cuda"};
  std::optional<std::vector<Token>> Tokens = rawTokens(SM, LO, Text);
  if (!Tokens || llvm::any_of(*Tokens, [](const Token &T) {
        return T.is(tok::raw_identifier) && CudaTests.contains(T.getRawIdentifier());
      }))
    return {};
  CudaInText Out;
  for (size_t I = 0; I < Tokens->size(); ++I) {
    SourceLocation Name = I + 1 < Tokens->size() ? (*Tokens)[I + 1].getLocation() : SourceLocation();
    if (isCudaCall(*Tokens, I))
      Out.CudaCalls.push_back({Name, {}, afterModulo(*Tokens, I)});
    if (std::optional<CharSourceRange> Dest = cudaMoveDestination(*Tokens, I))
      Out.Moves.push_back({Name, *Dest, afterModulo(*Tokens, I)});
  }
  return Out;
}

} // namespace torchtidy
