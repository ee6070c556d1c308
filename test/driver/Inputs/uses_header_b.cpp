#include "shared_header.h"
int b() { return 1; }
