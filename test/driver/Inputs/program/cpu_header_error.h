#pragma once
#include <torch/torch.h>

#include <pybind11/numpy.h>
