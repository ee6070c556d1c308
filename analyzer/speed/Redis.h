// The remote result cache's connection to Redis (hiredis). It is shared by
// the workers and connects on first use. Any failure (no connection, a
// timeout, an error reply, a reply of the wrong type) closes it for the rest
// of the run: a store that is down or slow must cost one timeout, not one
// per file.
#pragma once

#include "config/RemoteSettings.h"

#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>

struct redisContext;

namespace torchtidy {

class RedisClient {
public:
  RedisClient(RedisAddress Address, std::chrono::milliseconds Timeout);
  ~RedisClient();
  RedisClient(const RedisClient &) = delete;
  RedisClient &operator=(const RedisClient &) = delete;

  // Key's value; none when there is none or on failure (see failed()).
  std::optional<std::string> get(const std::string &Key);
  bool set(const std::string &Key, llvm::StringRef Value);
  bool failed() const { return Failed; }
  // Why it failed first; empty while it works.
  std::string failure() const;

private:
  // Under Lock: connected, or failed.
  bool ready();
  void fail(std::string Why);

  RedisAddress Address;
  std::chrono::milliseconds Timeout;
  mutable std::mutex Lock;
  redisContext *Context = nullptr;
  std::atomic<bool> Failed{false};
  std::string Why;
};

} // namespace torchtidy
