// shared_pch.test edits it to 1.
#pragma once
#define TIDY_PROBE_SYNC 0
