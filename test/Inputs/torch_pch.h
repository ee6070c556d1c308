// The precompiled header the test suites share.
#include <torch/torch.h>
