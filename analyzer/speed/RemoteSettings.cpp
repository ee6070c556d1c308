#include "RemoteSettings.h"

#include "Redis.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

namespace torchtidy {

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
