#pragma once
#include <c10/cuda/CUDACachingAllocator.h>
inline void header_release() { c10::cuda::CUDACachingAllocator::emptyCache(); }
