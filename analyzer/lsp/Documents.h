// The documents an editor has open: their unsaved text, which analyses
// read instead of the files (an in-memory overlay; nothing is written).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy::lsp {

struct Document {
  std::string Uri, Path, LanguageId, Text;
  int64_t Version = 0;
};

class DocumentStore {
public:
  void open(Document D);
  // False when the document is not open.
  bool change(const std::string &Path, std::string Text, int64_t Version);
  void close(const std::string &Path);
  std::optional<Document> get(const std::string &Path) const;
  std::vector<std::string> paths() const;
  // Open documents whose text differs from their file: what an analysis
  // must overlay, by path.
  std::map<std::string, std::string> unsaved() const;

private:
  mutable std::mutex Lock;
  std::map<std::string, Document> Docs;
};

// Whether torchtidy analyses a document: C++ (or CUDA) by its language id
// or, when the client sends another, its extension.
bool isCxx(const Document &D);

} // namespace torchtidy::lsp
