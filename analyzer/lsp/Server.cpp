#include "lsp/Server.h"

#include "config/CheckGlob.h"
#include "lsp/CodeActions.h"
#include "lsp/Protocol.h"
#include "support/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

namespace torchtidy::lsp {

using nlohmann::json;

// JSON-RPC and LSP error codes.
enum ErrorCode {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  ServerNotInitialized = -32002,
};

int Server::run() {
  std::string Body, Error;
  while (!ExitStatus) {
    Transport::Status St = T.read(Body, Error);
    if (St == Transport::Status::End)
      break;
    if (St == Transport::Status::BadHeader)
      error(nullptr, ParseError, Error);
    else
      dispatch(Body);
  }
  if (Worker)
    Worker->stop();
  return ExitStatus.value_or(1);
}

void Server::dispatch(const std::string &Body) {
  json Msg = json::parse(Body, nullptr, /*allow_exceptions=*/false);
  if (Msg.is_discarded())
    return error(nullptr, ParseError, "the message is not JSON");
  if (!Msg.is_object() || !Msg.contains("jsonrpc") || Msg["jsonrpc"] != "2.0")
    return error(nullptr, InvalidRequest, "not a JSON-RPC 2.0 message");
  json Id = Msg.contains("id") ? Msg["id"] : json();
  bool HasId = Msg.contains("id");
  if (HasId && !Id.is_number_integer() && !Id.is_string())
    return error(nullptr, InvalidRequest, "the id must be an integer or a string");
  if (!Msg.contains("method")) {
    if (HasId && (Msg.contains("result") || Msg.contains("error")))
      return; // the client's answer to one of our requests
    return error(Id, InvalidRequest, "no method");
  }
  if (!Msg["method"].is_string())
    return error(Id, InvalidRequest, "the method must be a string");
  std::string Method = Msg["method"];
  json Params = Msg.contains("params") ? Msg["params"] : json::object();
  try {
    if (HasId)
      request(Id, Method, Params);
    else
      notification(Method, Params);
  } catch (const json::exception &E) {
    // A missing or mistyped field; a notification gets no answer.
    if (HasId)
      error(Id, InvalidParams, std::string("invalid params: ") + E.what());
    else
      message(1, "torchtidy: " + Method + ": invalid params: " + E.what(), false);
  }
}

void Server::request(const json &Id, const std::string &Method, const json &Params) {
  if (Method == "initialize") {
    if (Initialized)
      return error(Id, InvalidRequest, "initialize was already sent");
    return reply(Id, initialize(Params));
  }
  if (!Initialized)
    return error(Id, ServerNotInitialized, "the server is not initialized");
  if (ShutDown)
    return error(Id, InvalidRequest, "the server is shut down");
  if (Method == "shutdown") {
    ShutDown = true;
    Worker->stop();
    return reply(Id, nullptr);
  }
  if (Method == "textDocument/codeAction")
    return reply(Id, codeAction(Params));
  error(Id, MethodNotFound, "unknown method " + Method);
}

void Server::notification(const std::string &Method, const json &Params) {
  if (Method == "exit") {
    ExitStatus = ShutDown ? 0 : 1;
    return;
  }
  // Before initialize, and after shutdown, notifications are dropped;
  // "$/" ones (cancelRequest, setTrace) need nothing: every request is
  // answered as soon as it is read.
  if (!Initialized || ShutDown)
    return;
  if (Method == "initialized")
    return initialized();
  if (Method == "textDocument/didOpen")
    return didOpen(Params);
  if (Method == "textDocument/didChange")
    return didChange(Params);
  auto PathOf = [&] { return uriToPath(Params.at("textDocument").at("uri").get<std::string>()); };
  if (Method == "textDocument/didSave") {
    if (auto Path = PathOf(); Path && Docs.get(*Path) && isCxx(*Docs.get(*Path)))
      Worker->schedule(*Path, std::chrono::milliseconds(0));
    return;
  }
  if (Method == "textDocument/didClose") {
    if (auto Path = PathOf())
      didClose(*Path);
    return;
  }
  if (Method == "workspace/didChangeWatchedFiles") {
    // A compile database or a .torchtidy.yaml changed: every open document
    // may analyse differently.
    Analysis->forgetDatabases();
    for (const std::string &Path : Docs.paths())
      if (isCxx(*Docs.get(Path)))
        Worker->schedule(Path, std::chrono::milliseconds(0));
  }
}

json Server::initialize(const json &Params) {
  json Options = Params.value("initializationOptions", json::object());
  if (!Options.is_object())
    Options = json::object();
  if (Options.contains("checks")) {
    std::string Checks = Options["checks"].get<std::string>(), GlobError;
    CheckGlob::parse(Checks, GlobError);
    if (GlobError.empty())
      S.Checks = Checks;
    else
      message(1, "torchtidy: initializationOptions.checks: " + GlobError + " (ignored)", true);
  }
  S.CacheDir = Options.value("cacheDir", S.CacheDir);
  S.UseCache = Options.value("cache", S.UseCache);
  S.UsePch = Options.value("pch", S.UsePch);
  S.DebounceMs = Options.value("debounceMs", S.DebounceMs);
  S.TimeoutSeconds = Options.value("timeoutSeconds", S.TimeoutSeconds);
  json Caps = Params.value("capabilities", json::object());
  WatchFiles = Caps.is_object() &&
               Caps.value("/workspace/didChangeWatchedFiles/dynamicRegistration"_json_pointer, false);
  ShowsProgress = Caps.is_object() && Caps.value("/window/workDoneProgress"_json_pointer, false);
  Analysis = std::make_unique<DocumentAnalysis>(S);
  Worker = std::make_unique<Scheduler>([this](const std::string &Path) { analyse(Path); });
  Initialized = true;
  return {{"capabilities",
           {{"textDocumentSync", {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
            {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}}},
          {"serverInfo", {{"name", "torchtidy"}, {"version", TORCHTIDY_VERSION}}}};
}

void Server::initialized() {
  if (!WatchFiles)
    return; // the database's time stamp is checked at every analysis anyway
  json Watchers = json::array({{{"globPattern", "**/.torchtidy.yaml"}},
                               {{"globPattern", "**/compile_commands.json"}}});
  T.send({{"jsonrpc", "2.0"},
          {"id", "torchtidy-watch"},
          {"method", "client/registerCapability"},
          {"params",
           {{"registrations",
             {{{"id", "torchtidy-watch"},
               {"method", "workspace/didChangeWatchedFiles"},
               {"registerOptions", {{"watchers", Watchers}}}}}}}}});
}

void Server::didOpen(const json &Params) {
  const json &TD = Params.at("textDocument");
  Document D;
  D.Uri = TD.at("uri").get<std::string>();
  std::optional<std::string> Path = uriToPath(D.Uri);
  if (!Path)
    return; // not a file: nothing to analyse
  D.Path = *Path;
  D.LanguageId = TD.value("languageId", "");
  D.Text = TD.at("text").get<std::string>();
  D.Version = TD.value("version", 0);
  bool Cxx = isCxx(D);
  Docs.open(std::move(D));
  if (Cxx)
    Worker->schedule(*Path, std::chrono::milliseconds(0));
}

void Server::didChange(const json &Params) {
  const json &TD = Params.at("textDocument");
  std::optional<std::string> Path = uriToPath(TD.at("uri").get<std::string>());
  const json &Changes = Params.at("contentChanges");
  if (!Path || Changes.empty())
    return;
  // Full synchronization: the last change holds the whole text.
  const json &Last = Changes.back();
  if (Last.contains("range"))
    return message(1, "torchtidy: an incremental change, but the server asked for full text", false);
  if (!Docs.change(*Path, Last.at("text").get<std::string>(), TD.value("version", 0)))
    return;
  if (isCxx(*Docs.get(*Path)))
    Worker->schedule(*Path, std::chrono::milliseconds(S.DebounceMs));
}

void Server::didClose(const std::string &Path) {
  std::optional<Document> D = Docs.get(Path);
  Docs.close(Path);
  Worker->cancel(Path);
  {
    std::lock_guard<std::mutex> G(AnalysedLock);
    Results.erase(Path);
  }
  if (D)
    notify("textDocument/publishDiagnostics", {{"uri", D->Uri}, {"diagnostics", json::array()}});
}

json Server::codeAction(const json &Params) {
  std::optional<std::string> Path =
      uriToPath(Params.at("textDocument").at("uri").get<std::string>());
  std::optional<Document> D = Path ? Docs.get(*Path) : std::nullopt;
  if (!D)
    return json::array();
  const json &Range = Params.at("range");
  unsigned First = Range.at("start").at("line"), Last = Range.at("end").at("line");
  std::lock_guard<std::mutex> G(AnalysedLock);
  auto It = Results.find(*Path);
  // Edited since: the fixes' offsets no longer hold until it is analysed again.
  if (It == Results.end() || It->second.Version != D->Version)
    return json::array();
  return codeActions(It->second.Findings, *Path, It->second.Text, First, Last,
                     [this](const std::string &File) {
                       if (std::optional<Document> Open = Docs.get(File))
                         return Open->Text;
                       auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
                       return Buf ? (*Buf)->getBuffer().str() : std::string();
                     });
}

void Server::analyse(const std::string &Path) {
  std::map<std::string, std::string> Unsaved = Docs.unsaved();
  std::optional<Document> D = Docs.get(Path);
  if (!D || ShutDown)
    return;
  std::string Token; // of the progress shown while a PCH is built
  DocumentResult R = Analysis->run(Path, Unsaved, [&] {
    if (!ShowsProgress)
      return;
    Token = "torchtidy-pch-" + std::to_string(++ProgressTokens);
    T.send({{"jsonrpc", "2.0"},
            {"id", Token},
            {"method", "window/workDoneProgress/create"},
            {"params", {{"token", Token}}}});
    progress(Token, "begin", "building the precompiled header of the LibTorch includes");
  });
  if (!Token.empty())
    progress(Token, "end", "");
  std::optional<Document> Now = Docs.get(Path);
  if (!Now || Now->Version != D->Version || Now->Text != D->Text || ShutDown)
    return; // edited or closed meanwhile: a newer analysis is due
  if (!R.Errors.empty())
    message(3, "torchtidy: " + Path + ":\n" + llvm::join(R.Errors, "\n"), false);
  if (R.NoDatabase) {
    std::lock_guard<std::mutex> G(AnalysedLock);
    if (ToldNoDatabase.insert(Path).second)
      message(3, "torchtidy: " + Path + ": no compile_commands.json found for it; not analysed",
              false);
  }
  if (!R.Failure.empty())
    message(1, "torchtidy: " + Path + ": " + R.Failure, true);
  publish(*D, R.Findings);
}

void Server::publish(const Document &D, const std::vector<Finding> &Findings) {
  json Diagnostics = json::array();
  for (const Finding &F : Findings)
    Diagnostics.push_back(toDiagnostic(F));
  {
    std::lock_guard<std::mutex> G(AnalysedLock);
    Results[D.Path] = {D.Version, D.Text, Findings};
  }
  notify("textDocument/publishDiagnostics",
         {{"uri", D.Uri}, {"version", D.Version}, {"diagnostics", std::move(Diagnostics)}});
}

void Server::progress(const std::string &Token, const char *Kind, const std::string &Message) {
  json Value = {{"kind", Kind}};
  if (!Message.empty())
    Value["message"] = Message;
  if (std::string(Kind) == "begin")
    Value["title"] = "torchtidy";
  notify("$/progress", {{"token", Token}, {"value", Value}});
}

void Server::reply(const json &Id, json Result) {
  T.send({{"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
}

void Server::error(const json &Id, int Code, const std::string &Message) {
  T.send({{"jsonrpc", "2.0"}, {"id", Id}, {"error", {{"code", Code}, {"message", Message}}}});
}

void Server::notify(const std::string &Method, json Params) {
  T.send({{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
}

void Server::message(int Type, const std::string &Text, bool Shown) {
  notify(Shown ? "window/showMessage" : "window/logMessage", {{"type", Type}, {"message", Text}});
}

} // namespace torchtidy::lsp
