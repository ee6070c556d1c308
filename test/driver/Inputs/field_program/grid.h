#pragma once
#include <torch/torch.h>

// Cells made on the host; moveTo, in grid.cpp, may move them.
class Grid {
public:
  Grid() : cells_(torch::zeros({4, 4})) {}
  bool isFree(int x, int y) { return cells_[x][y].item<int>() != 3; }
  void moveTo(torch::Device d);

private:
  torch::Tensor cells_;
};

// The same, with a method that no file defines.
class Board {
public:
  Board() : cells_(torch::zeros({4, 4})) {}
  bool isFree(int x, int y) { return cells_[x][y].item<int>() != 3; }
  void render();

private:
  torch::Tensor cells_;
};
