// A header beside LibTorch's, under -isystem: the shared PCH holds it, and
// the one it includes, which the TU does not name itself.
#pragma once
#include <torch/tidy_probe_value.h>
