#include "lsp/Transport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace torchtidy::lsp {

// Bounds on what a client may send, so that garbage cannot exhaust memory.
constexpr size_t MaxHeaderLine = 4096;
constexpr size_t MaxBody = 256u << 20;

bool Transport::readLine(std::string &Line) {
  Line.clear();
  for (int C; (C = std::fgetc(In)) != EOF;) {
    if (C == '\n') {
      if (!Line.empty() && Line.back() == '\r')
        Line.pop_back();
      return true;
    }
    if (Line.size() < MaxHeaderLine)
      Line += static_cast<char>(C);
  }
  return !Line.empty();
}

Transport::Status Transport::read(std::string &Body, std::string &Error) {
  std::string Line;
  std::optional<size_t> Length;
  bool Malformed = false, Any = false;
  // Blank lines before the headers (a client's stray newline) are skipped.
  while (readLine(Line)) {
    if (Line.empty()) {
      if (!Any)
        continue;
      break;
    }
    Any = true;
    auto [Name, Value] = llvm::StringRef(Line).split(':');
    unsigned long long N;
    if (Name.trim().equals_insensitive("Content-Length")) {
      if (llvm::getAsUnsignedInteger(Value.trim(), 10, N) || N > MaxBody)
        Malformed = true;
      else
        Length = N;
    }
  }
  if (!Any)
    return Status::End;
  if (Malformed || !Length) {
    Error = Malformed ? "bad Content-Length header" : "no Content-Length header";
    return Status::BadHeader;
  }
  Body.resize(*Length);
  size_t Got = std::fread(Body.data(), 1, *Length, In);
  if (Got != *Length)
    return Status::End;
  return Status::Message;
}

void Transport::send(const nlohmann::json &Message) {
  // Invalid UTF-8 (from a file name or a source line) is replaced, never thrown on.
  std::string Body = Message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::lock_guard<std::mutex> G(WriteLock);
  std::fprintf(Out, "Content-Length: %zu\r\n\r\n", Body.size());
  std::fwrite(Body.data(), 1, Body.size(), Out);
  std::fflush(Out);
}

} // namespace torchtidy::lsp
