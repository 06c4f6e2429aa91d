// cpu/scipy_ring: the ring's row pitch spreads a window of rows over the cache's sets.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>

#include "cpu/scipy_ring.hpp"

namespace fastblur::cpu {
namespace {

// Rows of any width, power-of-two ones included (2040 + one line was 2048 doubles before): the
// pitch holds the row in whole cache lines, and 64 successive rows start in 64 different sets of a
// 64-set cache (the L1's; the L2's sets are a multiple of it).
TEST(ScipyRing, PitchPutsSuccessiveRowsInDifferentCacheSets) {
  for (std::int64_t values : {1, 7, 8, 64, 1016, 1024, 2040, 2048, 4096, 8200, 16384}) {
    const std::size_t pitch = ring_pitch(values);
    EXPECT_GE(pitch, static_cast<std::size_t>(values));
    EXPECT_LT(pitch, static_cast<std::size_t>(values) + 16);
    EXPECT_EQ(pitch % 8, 0u) << values;  // whole 64-byte lines of doubles
    std::set<std::size_t> sets;
    for (std::size_t row = 0; row < 64; ++row) sets.insert(row * pitch / 8 % 64);
    EXPECT_EQ(sets.size(), 64u) << values << " values a row, pitch " << pitch;
  }
}

}  // namespace
}  // namespace fastblur::cpu
