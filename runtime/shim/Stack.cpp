#include "Stack.h"

#include <algorithm>
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>

namespace torchtidy_rt {

namespace {

// The shim's own frames on top of the stack (captureStack, the observer's
// callback, and whatever else the compiler did not inline: their number
// depends on the build) are dropped by module, not by count, and so are the
// frames above them of an interposed backtrace() (ASan's).
// The address range of the shim's loaded segments is found once: dladdr on
// every frame would take the loader's lock for each observed op.
struct CodeRange {
  uintptr_t Lo = 0, Hi = 0;
};
CodeRange shimRange() {
  Dl_info I;
  CodeRange R;
  if (!dladdr(reinterpret_cast<void *>(&captureStack), &I))
    return R;
  struct Query {
    const void *Base;
    CodeRange *Out;
  } Q{I.dli_fbase, &R};
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Data) {
        auto *Q = static_cast<Query *>(Data);
        bool Mine = false;
        uintptr_t Lo = UINTPTR_MAX, Hi = 0;
        for (int P = 0; P < Info->dlpi_phnum; ++P) {
          const ElfW(Phdr) &H = Info->dlpi_phdr[P];
          if (H.p_type != PT_LOAD)
            continue;
          uintptr_t Start = Info->dlpi_addr + H.p_vaddr;
          Mine |= H.p_offset == 0 && reinterpret_cast<const void *>(Start) == Q->Base;
          Lo = std::min(Lo, Start);
          Hi = std::max(Hi, Start + H.p_memsz);
        }
        if (!Mine)
          return 0;
        *Q->Out = {Lo, Hi};
        return 1;
      },
      &Q);
  return R;
}
bool inShim(void *Frame) {
  static const CodeRange R = shimRange();
  auto A = reinterpret_cast<uintptr_t>(Frame);
  return A >= R.Lo && A < R.Hi;
}

} // namespace

void captureStack(Stack &S) {
  void *Buf[kMaxFrames + 8];
  int N = backtrace(Buf, kMaxFrames + 8);
  int First = 0;
  while (First < N && !inShim(Buf[First]))
    ++First;
  while (First < N && inShim(Buf[First]))
    ++First;
  S.N = 0;
  for (int F = First; F < N && S.N < kMaxFrames; ++F)
    S.Frames[S.N++] = reinterpret_cast<uintptr_t>(Buf[F]);
}

} // namespace torchtidy_rt
