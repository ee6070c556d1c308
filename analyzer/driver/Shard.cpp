#include "driver/Shard.h"

#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace torchtidy {

std::optional<ShardSpec> parseShard(llvm::StringRef Text, std::string &Error) {
  auto [I, N] = Text.split('/');
  ShardSpec S;
  if (I.getAsInteger(10, S.Index) || N.getAsInteger(10, S.Count) || S.Count == 0 || S.Index == 0 ||
      S.Index > S.Count) {
    Error = "--shard=" + Text.str() + ": expected I/N with 1 <= I <= N (e.g. --shard=2/4)";
    return std::nullopt;
  }
  return S;
}

std::vector<std::string> shardOf(const std::vector<std::string> &Sources, const ShardSpec &S) {
  std::vector<uint64_t> Size(Sources.size(), 0);
  for (size_t I = 0; I < Sources.size(); ++I)
    llvm::sys::fs::file_size(Sources[I], Size[I]); // an unreadable file counts as empty
  std::vector<size_t> Order(Sources.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Size[A] != Size[B] ? Size[A] > Size[B] : Sources[A] < Sources[B];
  });
  std::vector<uint64_t> Load(S.Count, 0);
  std::vector<bool> Mine(Sources.size(), false);
  for (size_t I : Order) {
    // The least loaded shard, the lowest index on a tie.
    size_t To = std::min_element(Load.begin(), Load.end()) - Load.begin();
    Load[To] += std::max<uint64_t>(Size[I], 1);
    Mine[I] = To + 1 == S.Index;
  }
  std::vector<std::string> Out;
  for (size_t I = 0; I < Sources.size(); ++I)
    if (Mine[I])
      Out.push_back(Sources[I]);
  return Out;
}

} // namespace torchtidy
