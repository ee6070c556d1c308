#pragma once
#ifndef TORCHTIDY_VERSION
#error "TORCHTIDY_VERSION comes from CMake"
#endif
#ifndef TORCHTIDY_HOMEPAGE
#error "TORCHTIDY_HOMEPAGE comes from CMake (a cache variable)"
#endif
