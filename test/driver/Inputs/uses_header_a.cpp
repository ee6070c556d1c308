#include "shared_header.h"
int a() { return 0; }
