#pragma once
#ifndef TORCHTIDY_VERSION
#error "TORCHTIDY_VERSION comes from CMake"
#endif
