#include "core/populate.hpp"

#include <algorithm>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "core/overlap.hpp"

namespace fastblur::core {

void populate_for_write(const View& v) noexcept {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  const auto [first, last] = byte_range(v);
  if (last - first < (std::ptrdiff_t{1} << 20)) return;
  // Only a view that fills its range: a sparse one (rows far apart) would back memory it never writes.
  const auto written = static_cast<std::ptrdiff_t>(v.pixel_count() * v.channels * static_cast<std::int64_t>(element_size(v.type)));
  if (last - first > 2 * written) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(first) / page * page;
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(last) + page - 1) / page * page;
  // Present pages (mincore) cost a walk of the page tables to populate again: ask only where some are not.
  // Scanned in fixed chunks, so that a range of any size (even one no machine has) costs no allocation.
  unsigned char present[4096];
  bool all = true;
  for (std::uintptr_t at = begin; at < end && all;) {
    const std::uintptr_t pages = std::min<std::uintptr_t>((end - at) / page, sizeof present);
    if (mincore(reinterpret_cast<void*>(at), pages * page, present) != 0) return;  // not mapped: nothing to back
    for (std::uintptr_t i = 0; i < pages && all; ++i) all = (present[i] & 1) != 0;
    at += pages * page;
  }
  if (all) return;
  (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)v;
#endif
}

}  // namespace fastblur::core
