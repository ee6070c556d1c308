/* A library that loads but is no CUDA driver (like the toolkit's stub when
 * it is all there is): it lacks cuInit. */
int not_cuda(void) { return 0; }
