#include "grid.h"

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Grid grid;
  Board board;
  grid.moveTo(device);
  int free = 0;
  for (int step = 0; step < 100; ++step)
    free += grid.isFree(step % 4, 1) + board.isFree(step % 4, 2);
  return free;
}
