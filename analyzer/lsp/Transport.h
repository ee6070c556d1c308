// JSON-RPC messages over a byte stream with LSP's framing: headers
// ("Content-Length: N"), an empty line, then N bytes of JSON.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdio>
#include <mutex>
#include <string>

namespace torchtidy::lsp {

class Transport {
public:
  Transport(std::FILE *In, std::FILE *Out) : In(In), Out(Out) {}

  enum class Status { Message, BadHeader, End };
  // The next message's body. BadHeader: headers without a usable
  // Content-Length (Error says why); the stream goes on after them.
  Status read(std::string &Body, std::string &Error);
  // Thread-safe: the worker publishes while the main thread answers.
  void send(const nlohmann::json &Message);

private:
  bool readLine(std::string &Line);
  std::FILE *In, *Out;
  std::mutex WriteLock;
};

} // namespace torchtidy::lsp
