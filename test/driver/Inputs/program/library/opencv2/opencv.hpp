// A partial install of a library found through a hand-written -I: its
// umbrella header names an optional module that is not there.
#pragma once
#include "opencv2/calib3d.hpp"
namespace cv { struct Mat { unsigned char *data; int rows, cols; }; }
