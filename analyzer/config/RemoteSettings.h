// Where the remote result cache is and how it is used: the options
// --remote-cache, --cache-base-dir and --remote-cache-timeout, or the keys
// RemoteCache, CacheBaseDir and RemoteCacheTimeout of .torchtidy.yaml.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace torchtidy {

struct RedisAddress {
  std::string Host;
  int Port = 6379;
  int Db = 0;
};

// "redis://host[:port][/db]" (an IPv6 host in brackets); Error says what
// is wrong, naming no option (the caller does).
std::optional<RedisAddress> parseRedisUrl(llvm::StringRef Url, std::string &Error);

struct RemoteSettings {
  std::string Url;        // redis://...; empty: no remote cache
  std::string BaseDir;    // absolute; empty: the compile database's project root
  unsigned TimeoutMs = 0; // 0: the default
};

constexpr unsigned DefaultRemoteTimeoutMs = 1000;

bool isRemoteSettingKey(llvm::StringRef Key);

// Sets Key from a configuration file in Dir (CacheBaseDir is relative to
// it); what is wrong with the value otherwise.
std::string setRemoteSetting(RemoteSettings &S, llvm::StringRef Key, llvm::StringRef Value,
                             llvm::StringRef Dir);

// The command line's settings over the configuration's.
RemoteSettings mergeRemoteSettings(const RemoteSettings &CommandLine, const RemoteSettings &Config);

} // namespace torchtidy
