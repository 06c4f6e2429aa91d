// weighted_rows (cpu/weighted_rows_simd.hpp): its contract, out[i] = w0 r0[i], then fused
// multiply-adds in order of k, holds bit for bit at every length and at every place of out and the
// rows in a cache line (its vectors start where out is vector-aligned, the elements before one at a
// time), and it writes nothing outside out; weighted_pair_stream, its two-row form with streaming
// stores, the same.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/element_convert.hpp"
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

// weighted_pair_to: the lerp converted as it is written gives the bytes of weighted_rows followed by
// store_from_float, for values below, inside and above each type's range and on its rounding ties.
TEST(WeightedRows, APairConvertedAsItIsWrittenGivesTheBytesOfTheTwoSteps) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<float> value(-40.0f, 70000.0f), small(-3.0f, 300.0f);
  for (ElementType type : {ElementType::u8, ElementType::u16, ElementType::f16})
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{16}, std::size_t{33}, std::size_t{1000}}) {
      std::vector<float> a(n), b(n);
      for (std::size_t i = 0; i < n; ++i) {
        a[i] = type == ElementType::u8 ? small(rng) : value(rng), b[i] = type == ElementType::u8 ? small(rng) : value(rng);
        if (i % 5 == 0) a[i] = b[i] = std::floor(a[i]) + 0.5f;  // a tie of round to nearest
      }
      const float* rows[2] = {a.data(), b.data()};
      const float w[2] = {0.625f, 0.375f};
      std::vector<float> sum(n);
      cpu::weighted_rows(rows, w, 2, sum.data(), n);
      const std::size_t es = element_size(type);
      std::vector<unsigned char> want(n * es + 8, 0xAB), got(n * es + 8, 0xAB);
      core::store_from_float(type, sum.data(), want.data(), n);
      ASSERT_TRUE(cpu::weighted_pair_to(rows, w, type, got.data(), n));
      EXPECT_EQ(got, want) << to_string(type) << ", n " << n;  // the guard bytes after the row too
    }
  float row[1] = {1.0f}, out[1] = {-1.0f};
  const float* rows[2] = {row, row};
  const float w[2] = {0.5f, 0.5f};
  EXPECT_FALSE(cpu::weighted_pair_to(rows, w, ElementType::f32, out, 1));
  EXPECT_EQ(out[0], -1.0f);
}

// weighted_rows_from: rows of 8- and 16-bit elements summed as they are converted give the bits of
// load_as_float followed by weighted_rows.
TEST(WeightedRows, RowsConvertedAsTheyAreSummedGiveTheBitsOfTheTwoSteps) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<float> weight(-0.5f, 1.5f);
  std::uniform_int_distribution<int> bits(0, 65535);
  for (ElementType type : {ElementType::u8, ElementType::u16, ElementType::f16})
    for (int count : {4, 8, 16})
      for (std::size_t n : {std::size_t{1}, std::size_t{9}, std::size_t{16}, std::size_t{47}, std::size_t{1000}}) {
        const std::size_t es = element_size(type);
        std::vector<std::vector<unsigned char>> raw(static_cast<std::size_t>(count), std::vector<unsigned char>(n * es));
        std::vector<std::vector<float>> converted(static_cast<std::size_t>(count), std::vector<float>(n));
        std::vector<float> w(static_cast<std::size_t>(count));
        const void* raw_rows[16];
        const float* rows[16];
        for (std::size_t k = 0; k < raw.size(); ++k) {
          for (std::size_t i = 0; i < n * es; i += es) {
            const int b = bits(rng);
            // Half floats: finite values only (the exponent below 31).
            const int v = type == ElementType::f16 ? (b & 0x7BFF) : b;
            std::memcpy(raw[k].data() + i, &v, es);
          }
          core::load_as_float(type, raw[k].data(), converted[k].data(), n);
          raw_rows[k] = raw[k].data(), rows[k] = converted[k].data(), w[k] = weight(rng);
        }
        std::vector<float> want(n), got(n + 8, -3.0f);
        cpu::weighted_rows(rows, w.data(), count, want.data(), n);
        ASSERT_TRUE(cpu::weighted_rows_from(raw_rows, type, w.data(), count, got.data(), n));
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(float)), 0) << to_string(type) << " " << count << " rows, element " << i;
        for (std::size_t i = n; i < got.size(); ++i) ASSERT_EQ(got[i], -3.0f) << "written past the row";
      }
  const unsigned char row[4] = {};
  const void* rows[4] = {row, row, row, row};
  const float w[4] = {};
  float out[1] = {-1.0f};
  EXPECT_FALSE(cpu::weighted_rows_from(rows, ElementType::f32, w, 4, out, 1));
  EXPECT_FALSE(cpu::weighted_rows_from(rows, ElementType::u8, w, 3, out, 1));
  EXPECT_EQ(out[0], -1.0f);
}

TEST(WeightedRows, RejectsCountsItHasNoKernelFor) {
  const float row[1] = {1.0f}, w[3] = {1.0f, 1.0f, 1.0f};
  const float* rows[3] = {row, row, row};
  float out[1];
  EXPECT_THROW(cpu::weighted_rows(rows, w, 3, out, 1), InvalidArgument);
}

}  // namespace
}  // namespace fastblur
