#include "speed/Hashing.h"

#include "frontend/AnalysisOptions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <elf.h>
#include <link.h>

namespace torchtidy {

Hasher &Hasher::add(llvm::StringRef S) {
  std::string Len = std::to_string(S.size()) + ":";
  H.update(Len);
  H.update(S);
  return *this;
}

std::string Hasher::hex() { return llvm::toHex(H.final(), /*LowerCase=*/true); }

std::string hashOf(llvm::StringRef Data) { return Hasher().add(Data).hex(); }

std::string sealed(llvm::StringRef Magic, llvm::StringRef Body) {
  return (Magic + hashOf(Body) + "\n" + Body).str();
}

std::optional<llvm::StringRef> unsealed(llvm::StringRef Magic, llvm::StringRef Text) {
  auto [Header, Body] = Text.split('\n');
  if (!Header.consume_front(Magic) || Header != hashOf(Body))
    return std::nullopt;
  return Body;
}

std::string resultKey(const AnalysisOptions &Opts, llvm::StringRef Build,
                      const std::vector<clang::tooling::CompileCommand> &Commands,
                      llvm::StringRef File, llvm::StringRef Content,
                      llvm::function_ref<std::string(llvm::StringRef)> MapPath) {
  Hasher H;
  H.add(TORCHTIDY_VERSION).add(Build);
  for (const RuleInfo *R : Opts.Checks)
    H.add(R->Id);
  H.add("options");
  for (const auto &[Name, Value] : Opts.Options)
    H.add(Name).add(Value);
  H.add("extra");
  for (const std::string &A : Opts.ExtraArgs)
    H.add(MapPath(A));
  H.add(Opts.SkipSystemBodies ? "skip" : "noskip");
  H.add(MapPath(File)).add(Content);
  for (const clang::tooling::CompileCommand &C : Commands) {
    H.add("command").add(MapPath(C.Directory)).add(MapPath(C.Filename));
    for (const std::string &A : C.CommandLine)
      H.add(MapPath(A));
  }
  return H.hex();
}

// The main program's NT_GNU_BUILD_ID note, read from memory.
static int findBuildId(dl_phdr_info *Info, size_t, void *Out) {
  for (unsigned I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_NOTE)
      continue;
    const char *Note = reinterpret_cast<const char *>(Info->dlpi_addr + P.p_vaddr);
    const char *End = Note + P.p_memsz;
    while (Note + sizeof(ElfW(Nhdr)) <= End) {
      const auto *N = reinterpret_cast<const ElfW(Nhdr) *>(Note);
      const char *Name = Note + sizeof(ElfW(Nhdr));
      const char *Desc = Name + ((N->n_namesz + 3) & ~3u);
      if (N->n_type == NT_GNU_BUILD_ID && N->n_namesz == 4 && !memcmp(Name, "GNU", 4)) {
        *static_cast<std::string *>(Out) = llvm::toHex(llvm::StringRef(Desc, N->n_descsz), true);
        return 1;
      }
      Note = Desc + ((N->n_descsz + 3) & ~3u);
    }
  }
  return 1; // the first object is the main program: look no further
}

std::string buildIdentity() {
  std::string Id;
  dl_iterate_phdr(findBuildId, &Id);
  if (!Id.empty())
    return "build-id:" + Id;
  static int Anchor;
  auto Exe = llvm::MemoryBuffer::getFile(llvm::sys::fs::getMainExecutable(nullptr, &Anchor),
                                         /*IsText=*/false, /*RequiresNullTerminator=*/false);
  return Exe ? "content:" + hashOf((*Exe)->getBuffer()) : "";
}

} // namespace torchtidy
