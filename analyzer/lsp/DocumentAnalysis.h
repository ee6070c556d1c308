// One document's analysis for the language server: the compile database
// found as the command line finds it, the document's .torchtidy.yaml, the
// result cache and the shared PCH, with the editors' unsaved buffers
// overlaid on the files.
#pragma once

#include "findings/Finding.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torchtidy::lsp {

// From the client's initializationOptions (docs/editors.md).
struct Settings {
  std::optional<std::string> Checks; // appended to the configuration's, as --checks
  std::string CacheDir;              // "" for the default; see UseCache
  bool UseCache = true, UsePch = true;
  unsigned TimeoutSeconds = 60;
  unsigned DebounceMs = 500;
};

struct DocumentResult {
  bool NoDatabase = false;        // no compile_commands.json for it
  std::vector<Finding> Findings;  // in the document, NOLINT applied
  std::string Failure;            // crash, timeout, unreadable
  std::vector<std::string> Errors; // compile errors, malformed configuration or NOLINT
};

class DocumentAnalysis {
public:
  explicit DocumentAnalysis(Settings S) : S(std::move(S)) {}
  // Unsaved: the open documents whose text differs from their file.
  // OnPchBuild is called when a shared PCH is about to be built.
  DocumentResult run(const std::string &Path, const std::map<std::string, std::string> &Unsaved,
                     const std::function<void()> &OnPchBuild);
  // compile_commands.json changed: load them again.
  void forgetDatabases();

private:
  struct Loaded {
    std::string Stamp; // of the file, so that a rewrite is seen without a notification
    std::shared_ptr<clang::tooling::CompilationDatabase> DB;
  };
  std::shared_ptr<clang::tooling::CompilationDatabase> databaseFor(const std::string &Path,
                                                                   std::string &Error);
  Settings S;
  std::mutex Lock;
  std::map<std::string, Loaded> Databases; // by compile_commands.json
};

} // namespace torchtidy::lsp
