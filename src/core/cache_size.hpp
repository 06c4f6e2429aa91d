#pragma once
// The machine's last-level cache, for the plan's choices that depend on whether data can stay in it.
#include <cstdint>

namespace fastblur::core {

/// Bytes of the largest (last-level) data cache that CPU 0 reports in sysfs, read once; 32 MiB
/// where sysfs says nothing. (Not sysconf: under a VM glibc's cpuid reading gave the host's
/// 384 MiB where sysfs and lscpu gave the guest's 32 MiB.)
std::uint64_t last_level_cache_bytes();

}  // namespace fastblur::core
