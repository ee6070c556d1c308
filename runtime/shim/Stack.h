// A call stack as the shim records it: the return addresses of the
// program's frames, the shim's own dropped.
#pragma once

#include <cstdint>

namespace torchtidy_rt {

constexpr int kMaxFrames = 48; // return addresses kept per event

struct Stack {
  uintptr_t Frames[kMaxFrames];
  int N = 0;
};

// The caller's stack, from the first frame outside the shim.
void captureStack(Stack &S);

} // namespace torchtidy_rt
