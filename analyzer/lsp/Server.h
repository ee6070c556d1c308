// The language server: JSON-RPC dispatch, the open documents, and the
// worker that analyses them and publishes their diagnostics.
#pragma once

#include "lsp/DocumentAnalysis.h"
#include "lsp/Documents.h"
#include "lsp/Scheduler.h"
#include "lsp/Transport.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace torchtidy::lsp {

class Server {
public:
  explicit Server(Transport &T) : T(T) {}
  // Serves until "exit" or the end of input; the process's exit status:
  // 0 after a shutdown request, else 1.
  int run();

private:
  void dispatch(const std::string &Body);
  void request(const nlohmann::json &Id, const std::string &Method, const nlohmann::json &Params);
  void notification(const std::string &Method, const nlohmann::json &Params);
  nlohmann::json initialize(const nlohmann::json &Params);
  void initialized();
  void didOpen(const nlohmann::json &Params);
  void didChange(const nlohmann::json &Params);
  void didClose(const std::string &Path);
  nlohmann::json codeAction(const nlohmann::json &Params);
  void analyse(const std::string &Path); // on the worker thread
  void publish(const Document &D, const std::vector<Finding> &Findings);
  // $/progress: Kind "begin" or "end" of building a shared PCH.
  void progress(const std::string &Token, const char *Kind, const std::string &Message);

  void reply(const nlohmann::json &Id, nlohmann::json Result);
  void error(const nlohmann::json &Id, int Code, const std::string &Message);
  void notify(const std::string &Method, nlohmann::json Params);
  // window/showMessage (Shown) or window/logMessage; Type 1 error .. 4 log.
  void message(int Type, const std::string &Text, bool Shown);

  Transport &T;
  Settings S;
  DocumentStore Docs;
  std::unique_ptr<DocumentAnalysis> Analysis;
  std::unique_ptr<Scheduler> Worker;
  bool Initialized = false, WatchFiles = false, ShowsProgress = false;
  std::atomic<bool> ShutDown{false};
  unsigned ProgressTokens = 0; // on the worker thread
  std::optional<int> ExitStatus;

  // What each document's diagnostics were made from, for its code actions.
  struct Analysed {
    int64_t Version;
    std::string Text;
    std::vector<Finding> Findings;
  };
  std::mutex AnalysedLock;
  std::map<std::string, Analysed> Results;
  std::set<std::string> ToldNoDatabase; // said once per document, not per edit
};

} // namespace torchtidy::lsp
