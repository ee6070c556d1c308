#include "speed/Redis.h"

#include "llvm/ADT/StringExtras.h"

#include <hiredis/hiredis.h>

#include <cstring>

namespace torchtidy {

static timeval toTimeval(std::chrono::milliseconds T) {
  return {static_cast<time_t>(T.count() / 1000), static_cast<suseconds_t>(T.count() % 1000 * 1000)};
}

RedisClient::RedisClient(RedisAddress Address, std::chrono::milliseconds Timeout)
    : Address(std::move(Address)), Timeout(Timeout) {}

RedisClient::~RedisClient() {
  if (Context)
    redisFree(Context);
}

std::string RedisClient::failure() const {
  std::lock_guard<std::mutex> G(Lock);
  return Why;
}

void RedisClient::fail(std::string Message) {
  if (Failed)
    return;
  Why = std::move(Message);
  Failed = true;
  if (Context)
    redisFree(Context);
  Context = nullptr;
}

// The reply of a command sent; frees it at the end of the scope.
struct Reply {
  redisReply *R;
  explicit Reply(void *P) : R(static_cast<redisReply *>(P)) {}
  ~Reply() {
    if (R)
      freeReplyObject(R);
  }
};

static std::string contextError(redisContext *C, llvm::StringRef Doing) {
  std::string E = C->errstr[0] ? C->errstr : "unknown error";
  // What hiredis says of a read that timed out.
  if (C->err == REDIS_ERR_IO && E == strerror(EAGAIN))
    E = "no answer within the timeout";
  return Doing.str() + ": " + E;
}

static std::string unexpected(llvm::StringRef Command, const redisReply *R) {
  return Command.str() + ": unexpected reply" +
         (R->type == REDIS_REPLY_ERROR ? " '" + std::string(R->str, R->len) + "'" : std::string());
}

bool RedisClient::ready() {
  if (Failed)
    return false;
  if (Context)
    return true;
  Context = redisConnectWithTimeout(Address.Host.c_str(), Address.Port, toTimeval(Timeout));
  if (!Context || Context->err) {
    fail(Context ? contextError(Context, "cannot connect") : "cannot connect: out of memory");
    return false;
  }
  if (redisSetTimeout(Context, toTimeval(Timeout)) != REDIS_OK) {
    fail(contextError(Context, "cannot set the timeout"));
    return false;
  }
  if (Address.Db != 0) {
    Reply R(redisCommand(Context, "SELECT %d", Address.Db));
    std::string Select = "SELECT " + std::to_string(Address.Db);
    if (!R.R || R.R->type != REDIS_REPLY_STATUS) {
      fail(R.R ? unexpected(Select, R.R) : contextError(Context, Select));
      return false;
    }
  }
  return true;
}

std::optional<std::string> RedisClient::get(const std::string &Key) {
  std::lock_guard<std::mutex> G(Lock);
  if (!ready())
    return std::nullopt;
  Reply R(redisCommand(Context, "GET %b", Key.data(), Key.size()));
  if (!R.R)
    fail(contextError(Context, "GET"));
  else if (R.R->type == REDIS_REPLY_STRING)
    return std::string(R.R->str, R.R->len);
  else if (R.R->type != REDIS_REPLY_NIL)
    fail(unexpected("GET", R.R));
  return std::nullopt;
}

bool RedisClient::set(const std::string &Key, llvm::StringRef Value) {
  std::lock_guard<std::mutex> G(Lock);
  if (!ready())
    return false;
  Reply R(redisCommand(Context, "SET %b %b", Key.data(), Key.size(), Value.data(), Value.size()));
  if (!R.R)
    fail(contextError(Context, "SET"));
  else if (R.R->type != REDIS_REPLY_STATUS)
    fail(unexpected("SET", R.R));
  return !Failed;
}

} // namespace torchtidy
