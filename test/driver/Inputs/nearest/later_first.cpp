#include <vector>
#include "later.h"

int first(const std::vector<int> &v) { return v.empty() ? LATER : v.front(); }
