#include "findings/Fixes.h"

#include "support/AtomicFile.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace torchtidy {
namespace {

std::string at(const Position &P) {
  return std::to_string(P.Line) + ":" + std::to_string(P.Column);
}

struct Edit {
  const FindingFix *Fix;
  const Finding *Owner;
  auto key() const { return std::tie(Fix->Offset, Fix->Length, Fix->Replacement); }
};

// The replacements for one file, or an error when two overlap (or insert
// at the same place different text, whose order would be a guess).
llvm::Expected<clang::tooling::Replacements> replacementsFor(const std::string &File,
                                                             std::vector<Edit> Edits) {
  std::sort(Edits.begin(), Edits.end(), [](const Edit &A, const Edit &B) { return A.key() < B.key(); });
  Edits.erase(std::unique(Edits.begin(), Edits.end(),
                          [](const Edit &A, const Edit &B) { return A.key() == B.key(); }),
              Edits.end());
  clang::tooling::Replacements Out;
  for (size_t I = 0; I < Edits.size(); ++I) {
    const FindingFix &X = *Edits[I].Fix;
    if (I > 0) {
      const FindingFix &Prev = *Edits[I - 1].Fix;
      bool Overlap = Prev.Offset + Prev.Length > X.Offset ||
                     (Prev.Offset == X.Offset && (Prev.Length == 0 || X.Length == 0));
      if (Overlap)
        return llvm::createStringError(
            "the fixes of the findings at " + at(Edits[I - 1].Owner->Pos) + " [" +
            Edits[I - 1].Owner->Rule->Id + "] and " + at(Edits[I].Owner->Pos) + " [" +
            Edits[I].Owner->Rule->Id + "] overlap");
    }
    if (llvm::Error E = Out.add({File, X.Offset, X.Length, X.Replacement}))
      return std::move(E);
  }
  return Out;
}

// Byte offsets of positions, reading each file once.
class Offsets {
public:
  unsigned of(const Position &P) {
    auto It = Buffers.find(P.File);
    if (It == Buffers.end()) {
      auto Buffer = llvm::MemoryBuffer::getFile(P.File, /*IsText=*/true);
      It = Buffers.try_emplace(P.File, Buffer ? std::move(*Buffer) : nullptr).first;
    }
    if (!It->second)
      return 0;
    llvm::StringRef Text = It->second->getBuffer();
    size_t Start = 0;
    for (unsigned L = 1; L < P.Line; ++L) {
      size_t Newline = Text.find('\n', Start);
      if (Newline == llvm::StringRef::npos)
        return 0;
      Start = Newline + 1;
    }
    return unsigned(std::min<size_t>(Start + P.Column - 1, Text.size()));
  }

private:
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> Buffers;
};

} // namespace

size_t applyFixes(const std::vector<Finding> &Findings, std::vector<std::string> &Errors,
                  llvm::raw_ostream *Log) {
  std::map<std::string, std::vector<Edit>> ByFile;
  for (const Finding &F : Findings)
    for (const FindingFix &X : F.Fixes)
      ByFile[X.Pos.File].push_back({&X, &F});
  size_t Applied = 0;
  for (auto &[File, Edits] : ByFile) {
    auto Fail = [&, &File = File](const std::string &Why) {
      Errors.push_back("torchtidy: error: " + File + ": " + Why + "; no fix applied to this file");
    };
    llvm::Expected<clang::tooling::Replacements> Replaces = replacementsFor(File, Edits);
    if (!Replaces) {
      Fail(llvm::toString(Replaces.takeError()));
      continue;
    }
    auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false);
    if (!Buffer) {
      Fail("cannot read it: " + Buffer.getError().message());
      continue;
    }
    llvm::Expected<std::string> Fixed =
        clang::tooling::applyAllReplacements((*Buffer)->getBuffer(), *Replaces);
    if (!Fixed) {
      Fail(llvm::toString(Fixed.takeError()));
      continue;
    }
    std::string WriteError;
    if (!writeFileAtomically(File, *Fixed, WriteError)) {
      Errors.push_back("torchtidy: error: " + WriteError + "; no fix applied to this file");
      continue;
    }
    Applied += Replaces->size();
    if (Log)
      *Log << "torchtidy: " << File << ": applied " << Replaces->size() << " fix(es)\n";
  }
  return Applied;
}

bool exportFixes(const std::vector<Finding> &Findings, llvm::StringRef MainSourceFile,
                 const std::string &Path, std::string &Error) {
  namespace tooling = clang::tooling;
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  Offsets Offsets;
  auto message = [&](const Position &P, const std::string &Text) {
    tooling::DiagnosticMessage M(Text);
    M.FilePath = P.File;
    M.FileOffset = Offsets.of(P);
    return M;
  };
  tooling::TranslationUnitDiagnostics TU;
  TU.MainSourceFile = MainSourceFile.str();
  for (const Finding &F : Findings) {
    tooling::DiagnosticMessage M = message(F.Pos, F.Message);
    for (const FindingFix &X : F.Fixes)
      if (llvm::Error E = M.Fix[X.Pos.File].add({X.Pos.File, X.Offset, X.Length, X.Replacement})) {
        Error = Path + ": the fixes of the finding at " + F.Pos.File + ":" + at(F.Pos) +
                " conflict: " + llvm::toString(std::move(E));
        return false;
      }
    llvm::SmallVector<tooling::DiagnosticMessage, 1> Notes;
    for (const FindingNote &N : F.Notes)
      Notes.push_back(message(N.Pos, N.Message));
    TU.Diagnostics.emplace_back(F.Rule->Id, M, Notes,
                                F.Severity == Level::Error ? tooling::Diagnostic::Error
                                                           : tooling::Diagnostic::Warning,
                                Cwd.str());
  }
  std::string Yaml;
  llvm::raw_string_ostream OS(Yaml);
  llvm::yaml::Output Out(OS);
  Out << TU;
  OS.flush();
  return writeFileAtomically(Path, Yaml, Error);
}

} // namespace torchtidy
