// weighted_rows (cpu/weighted_rows_simd.hpp): its contract, out[i] = w0 r0[i], then fused
// multiply-adds in order of k, holds bit for bit at every length and at every place of out and the
// rows in a cache line (its vectors start where out is vector-aligned, the elements before one at a
// time), and it writes nothing outside out; weighted_pair_stream, its two-row form with streaming
// stores, the same.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "cpu/weighted_rows_simd.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

constexpr std::size_t kGuard = 16;  // floats of NaN before and after out

TEST(WeightedRows, TheSameBitsAtEveryLengthAndAlignment) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<float> value(-0.5f, 1.5f);
  for (int count : {2, 4, 8}) {
    std::vector<float> w(static_cast<std::size_t>(count));
    for (float& x : w) x = value(rng);
    for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{16}, std::size_t{17}, std::size_t{63},
                          std::size_t{100}, std::size_t{1000}}) {
      std::vector<std::vector<float>> data(static_cast<std::size_t>(count), std::vector<float>(n + 32));
      for (auto& row : data)
        for (float& x : row) x = value(rng);
      for (std::size_t out_shift = 0; out_shift < 16; ++out_shift) {
        const std::size_t row_shift = (out_shift * 7) % 16;  // rows placed unlike out, and like it at 0
        const float* rows[8];
        for (int k = 0; k < count; ++k) rows[k] = data[static_cast<std::size_t>(k)].data() + row_shift;
        // weighted_rows, and for two rows weighted_pair_stream (streaming stores where out is aligned).
        for (bool stream : {false, true}) {
          if (stream && count != 2) continue;
          std::vector<float> out(n + 2 * kGuard + 16, std::numeric_limits<float>::quiet_NaN());
          float* o = out.data() + kGuard + out_shift;
          if (stream) cpu::weighted_pair_stream(rows, w.data(), o, n);
          else cpu::weighted_rows(rows, w.data(), count, o, n);
          for (std::size_t i = 0; i < n; ++i) {
            float want = w[0] * rows[0][i];
            for (int k = 1; k < count; ++k) want = std::fma(w[static_cast<std::size_t>(k)], rows[k][i], want);
            ASSERT_EQ(o[i], want) << count << " rows, n " << n << ", out at float " << out_shift << ", element " << i
                                  << (stream ? ", streamed" : "");
          }
          for (float* g = out.data(); g < o; ++g) ASSERT_TRUE(std::isnan(*g)) << "written before out";
          for (float* g = o + n; g < out.data() + out.size(); ++g) ASSERT_TRUE(std::isnan(*g)) << "written after out";
        }
      }
    }
  }
}

TEST(WeightedRows, RejectsCountsItHasNoKernelFor) {
  const float row[1] = {1.0f}, w[3] = {1.0f, 1.0f, 1.0f};
  const float* rows[3] = {row, row, row};
  float out[1];
  EXPECT_THROW(cpu::weighted_rows(rows, w, 3, out, 1), InvalidArgument);
}

}  // namespace
}  // namespace fastblur
