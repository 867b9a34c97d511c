#pragma once
// A name no other use of the macro in the same translation unit shares: registration
// macros declare their static flag with it, so two registrations can meet in one unity
// batch (CMakeLists.txt) without clashing.
#define NPUSIM_CONCAT_TOKENS(a, b) a##b
#define NPUSIM_CONCAT(a, b) NPUSIM_CONCAT_TOKENS(a, b)
#define NPUSIM_UNIQUE_NAME(prefix) NPUSIM_CONCAT(prefix, __COUNTER__)
