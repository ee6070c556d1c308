// --shard=I/N: the share of the sources one job of a CI matrix analyses.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace torchtidy {

struct ShardSpec {
  unsigned Index = 1; // 1-based, as in --shard=1/4
  unsigned Count = 1;
};

// "I/N" with 1 <= I <= N; Error says what is wrong.
std::optional<ShardSpec> parseShard(llvm::StringRef Text, std::string &Error);

// The sources of shard S, in their given order. Balanced by size: files
// go largest first to the shard with the fewest bytes so far, ties broken
// by path, so that the N shards together are every source once and the
// split is the same for the same files in any checkout.
std::vector<std::string> shardOf(const std::vector<std::string> &Sources, const ShardSpec &S);

} // namespace torchtidy
