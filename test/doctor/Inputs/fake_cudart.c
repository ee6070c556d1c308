/* A test double of the CUDA runtime library: cudaRuntimeGetVersion answers
 * FAKE_CUDART_VERSION (default 12040). */
#include <stdlib.h>

int cudaRuntimeGetVersion(int *V) {
  const char *E = getenv("FAKE_CUDART_VERSION");
  *V = E && *E ? atoi(E) : 12040;
  return 0;
}
