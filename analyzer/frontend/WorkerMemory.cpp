#include "frontend/WorkerMemory.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

namespace torchtidy {

uint64_t availableMB() {
  auto Buf = llvm::MemoryBuffer::getFileAsStream("/proc/meminfo");
  if (!Buf)
    return 0;
  for (llvm::StringRef Rest = (*Buf)->getBuffer(); !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    if (Line.consume_front("MemAvailable:")) {
      uint64_t KB = 0;
      if (!Line.trim().split(' ').first.getAsInteger(10, KB))
        return KB / 1024;
    }
  }
  return 0;
}

unsigned jobsForMemory(unsigned Requested, uint64_t MaxMemoryMB, uint64_t PerWorkerMB) {
  uint64_t MB = MaxMemoryMB ? MaxMemoryMB : availableMB();
  if (!MB) // unknown: trust -j
    return Requested;
  return static_cast<unsigned>(std::max<uint64_t>(1, std::min<uint64_t>(Requested, MB / PerWorkerMB)));
}

} // namespace torchtidy
