// -j bounded by memory: each worker parses a whole translation unit.
#pragma once

#include <cstdint>

namespace torchtidy {

// MB available now (/proc/meminfo's MemAvailable), 0 when unknown.
uint64_t availableMB();

// How many workers fit: each needs about WorkerMB; MaxMemoryMB 0 means the
// memory available now (/proc/meminfo's MemAvailable).
unsigned jobsForMemory(unsigned Requested, uint64_t MaxMemoryMB, uint64_t WorkerMB);

} // namespace torchtidy
