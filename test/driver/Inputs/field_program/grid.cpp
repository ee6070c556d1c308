#include "grid.h"

void Grid::moveTo(torch::Device d) { cells_ = cells_.to(d); }
