// The CLI's start-up without a calibration it never uses. Debian's libhwy.so runs a static
// initializer at load time, whatever the command, that measures its timer's resolution for
// nanobenchmark (hwy::platform::TimerResolution: about 3 ms, a quarter of `fastblur --version`,
// bench/RESULTS.md). fastblur uses Highway's dispatch, never nanobenchmark. That initializer calls
// the function through the PLT, so the executable's own definition (the linker exports it, as it
// exports every symbol a linked shared library refers to) is the one it finds: a constant, measured
// nowhere. The library and the Python module, which other programs load, keep Highway's own.
#include <cstdint>

namespace hwy::platform {
std::uint64_t TimerResolution() { return 1; }
}  // namespace hwy::platform
