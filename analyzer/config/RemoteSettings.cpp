#include "config/RemoteSettings.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace torchtidy {

std::optional<RedisAddress> parseRedisUrl(llvm::StringRef Url, std::string &Error) {
  const char *Expected = "expected redis://host[:port][/db]";
  llvm::StringRef Rest = Url;
  if (!Rest.consume_front("redis://")) {
    Error = "'" + Url.str() + "': " + Expected;
    return std::nullopt;
  }
  auto [HostPort, Db] = Rest.split('/');
  RedisAddress A;
  llvm::StringRef Port;
  if (HostPort.consume_front("[")) { // [::1]:6379
    size_t Close = HostPort.find(']');
    A.Host = HostPort.take_front(Close).str();
    Port = Close == llvm::StringRef::npos ? "?" : HostPort.drop_front(Close + 1);
    if (!Port.empty() && !Port.consume_front(":"))
      Port = "?";
  } else {
    auto [H, P] = HostPort.split(':');
    A.Host = H.str();
    Port = P;
    if (HostPort.contains(':') && P.empty())
      Port = "?";
  }
  if (A.Host.empty() || llvm::StringRef(A.Host).contains('@'))
    Error = "'" + Url.str() + "': no host (credentials in the URL are not supported); " + Expected;
  else if (!Port.empty() && (Port.getAsInteger(10, A.Port) || A.Port <= 0 || A.Port > 65535))
    Error = "'" + Url.str() + "': the port must be a number from 1 to 65535; " + Expected;
  else if (!Db.empty() && (Db.getAsInteger(10, A.Db) || A.Db < 0))
    Error = "'" + Url.str() + "': the database must be a number; " + Expected;
  if (!Error.empty())
    return std::nullopt;
  return A;
}


bool isRemoteSettingKey(llvm::StringRef Key) {
  return Key == "RemoteCache" || Key == "CacheBaseDir" || Key == "RemoteCacheTimeout";
}

std::string setRemoteSetting(RemoteSettings &S, llvm::StringRef Key, llvm::StringRef Value,
                             llvm::StringRef Dir) {
  std::string Error;
  if (Key == "RemoteCache" && parseRedisUrl(Value, Error))
    S.Url = Value.str();
  if (Key == "RemoteCacheTimeout" && (Value.getAsInteger(10, S.TimeoutMs) || S.TimeoutMs == 0))
    Error = "'" + Value.str() + "': expected a number of milliseconds above 0";
  if (Key == "CacheBaseDir") {
    llvm::SmallString<256> P(Value);
    if (!llvm::sys::path::is_absolute(P))
      P = (Dir + "/" + Value).str();
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    S.BaseDir = P.str().str();
  }
  return Error;
}

RemoteSettings mergeRemoteSettings(const RemoteSettings &CommandLine, const RemoteSettings &Config) {
  RemoteSettings S = Config;
  if (!CommandLine.Url.empty())
    S.Url = CommandLine.Url;
  if (!CommandLine.BaseDir.empty())
    S.BaseDir = CommandLine.BaseDir;
  if (CommandLine.TimeoutMs)
    S.TimeoutMs = CommandLine.TimeoutMs;
  if (!S.TimeoutMs)
    S.TimeoutMs = DefaultRemoteTimeoutMs;
  return S;
}

} // namespace torchtidy
