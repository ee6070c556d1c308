// A graphics library installed without its text add-on (gfx/text.h).
#pragma once
