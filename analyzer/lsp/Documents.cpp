#include "lsp/Documents.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace torchtidy::lsp {

void DocumentStore::open(Document D) {
  std::lock_guard<std::mutex> G(Lock);
  std::string Path = D.Path;
  Docs[Path] = std::move(D);
}

bool DocumentStore::change(const std::string &Path, std::string Text, int64_t Version) {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Docs.find(Path);
  if (It == Docs.end())
    return false;
  It->second.Text = std::move(Text);
  It->second.Version = Version;
  return true;
}

void DocumentStore::close(const std::string &Path) {
  std::lock_guard<std::mutex> G(Lock);
  Docs.erase(Path);
}

std::optional<Document> DocumentStore::get(const std::string &Path) const {
  std::lock_guard<std::mutex> G(Lock);
  auto It = Docs.find(Path);
  if (It == Docs.end())
    return std::nullopt;
  return It->second;
}

std::vector<std::string> DocumentStore::paths() const {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<std::string> Out;
  for (const auto &[Path, D] : Docs)
    Out.push_back(Path);
  return Out;
}

std::map<std::string, std::string> DocumentStore::unsaved() const {
  std::map<std::string, std::string> Out;
  std::lock_guard<std::mutex> G(Lock);
  for (const auto &[Path, D] : Docs) {
    auto Disk = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Disk || (*Disk)->getBuffer() != D.Text)
      Out[Path] = D.Text;
  }
  return Out;
}

bool isCxx(const Document &D) {
  if (llvm::StringSwitch<bool>(D.LanguageId)
          .Cases("cpp", "cuda", "cuda-cpp", "objective-cpp", true)
          .Default(false))
    return true;
  llvm::StringRef Ext = llvm::sys::path::extension(D.Path);
  return llvm::StringSwitch<bool>(Ext)
      .Cases(".cpp", ".cc", ".cxx", ".c++", ".cu", true)
      .Cases(".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".ipp", true)
      .Default(false);
}

} // namespace torchtidy::lsp
