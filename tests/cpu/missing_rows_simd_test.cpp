// cpu/missing_rows_simd: the normalized convolution's packing and division of rows, in SIMD, give
// the bits of one value at a time - every channel count, float and double, widths that leave
// every kind of tail, holes in whole pixels and in some channels only (mixed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "cpu/missing_rows_simd.hpp"
#include "cpu/weighted_rows_simd.hpp"
#include "support/test_support.hpp"

namespace fastblur::cpu {
namespace {

template <class T>
void check_pack_and_divide(std::mt19937_64& rng) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::uniform_real_distribution<double> value(-3.0, 3.0), unit(0.0, 1.0);
  for (int k = 1; k <= 3; ++k)
    for (std::int64_t width : {0, 1, 3, 4, 5, 6, 7, 8, 15, 16, 17, 21, 33, 64, 70, 100, 257}) {
      for (int pattern = 0; pattern < 3; ++pattern) {  // no NaN, whole pixels, some channels only
        std::vector<T> in(static_cast<std::size_t>(width * k));
        bool want_mixed = false;
        for (std::int64_t x = 0; x < width; ++x) {
          const bool hole = pattern > 0 && unit(rng) < 0.3;
          bool first = false;
          for (int c = 0; c < k; ++c) {
            bool nan_here = hole;
            if (pattern == 2 && unit(rng) < 0.1) nan_here = !nan_here;
            in[static_cast<std::size_t>(x * k + c)] = nan_here ? nan : static_cast<T>(value(rng));
            if (c == 0) first = nan_here;
            else want_mixed |= nan_here != first;
          }
        }
        for (bool omit : {true, false}) {
          std::vector<T> out(static_cast<std::size_t>(width * (k + 1)), T(7));
          const bool mixed = pack_nan_row(in.data(), out.data(), width, k, omit);
          if (omit) EXPECT_EQ(mixed, want_mixed) << "k " << k << " width " << width << " pattern " << pattern;
          for (std::int64_t x = 0; x < width; ++x) {
            const T* p = in.data() + x * k;
            const T* o = out.data() + x * (k + 1);
            const bool hole = omit && std::isnan(p[0]);
            for (int c = 0; c < k; ++c) {
              const T want = hole ? T(0) : p[c];
              EXPECT_EQ(std::memcmp(&o[c], &want, sizeof(T)), 0) << "pack k " << k << " width " << width << " pixel " << x;
            }
            EXPECT_EQ(o[k], hole ? T(0) : T(1)) << "weight, k " << k << " width " << width << " pixel " << x;
          }
        }
      }
      // Division: weights about the floor, zero and negative.
      std::vector<T> work(static_cast<std::size_t>(width * (k + 1)));
      for (std::int64_t x = 0; x < width; ++x) {
        for (int c = 0; c < k; ++c) work[static_cast<std::size_t>(x * (k + 1) + c)] = static_cast<T>(value(rng));
        const double u = unit(rng);
        work[static_cast<std::size_t>(x * (k + 1) + k)] = static_cast<T>(u < 0.1 ? 0.0 : u < 0.2 ? 1e-9 : u < 0.25 ? -0.5 : u);
      }
      const T floor = static_cast<T>(1e-6), empty = nan;
      // Plain and streamed stores; streamed from every place in a cache line (the head before the
      // first whole line, the tail after the last).
      for (int shift = -1; shift < 16; ++shift) {
        const bool stream = shift >= 0;
        std::vector<T> buffer(static_cast<std::size_t>(width * k) + 48, T(5));
        const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(buffer.data());
        const std::size_t lead = stream ? ((64 - base % 64) % 64 / sizeof(T) + static_cast<std::size_t>(shift)) : 0;
        T* out = buffer.data() + lead;
        divide_row(work.data(), out, width, k, floor, empty, stream);
        for (std::int64_t x = 0; x < width; ++x)
          for (int c = 0; c < k; ++c) {
            const T den = work[static_cast<std::size_t>(x * (k + 1) + k)];
            const T want = den > floor ? work[static_cast<std::size_t>(x * (k + 1) + c)] / den : empty;
            ASSERT_EQ(std::memcmp(&out[static_cast<std::size_t>(x * k + c)], &want, sizeof(T)), 0)
                << "divide k " << k << " width " << width << " pixel " << x << " streamed " << stream << " shift " << shift;
          }
        for (std::size_t i = 0; i < buffer.size(); ++i)
          if (i < lead || i >= lead + static_cast<std::size_t>(width * k))
            ASSERT_EQ(buffer[i], T(5)) << "outside the row, k " << k << " width " << width << " shift " << shift;
      }
    }
}

// divide_lerp_row: the bits of weighted_rows' lerp of the two rows written, then divide_row -
// every channel count, widths with every tail, plain and streamed from every place in a line.
TEST(MissingRowsSimd, DivideOfALerpIsTheLerpWrittenThenDivided) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> value(-3.0, 3.0), unit(0.0, 1.0);
  const float floor = 1e-6f, empty = std::numeric_limits<float>::quiet_NaN();
  for (int k = 1; k <= 3; ++k)
    for (std::int64_t width : {0, 1, 3, 5, 15, 16, 17, 21, 33, 64, 70, 100, 257}) {
      const std::size_t n = static_cast<std::size_t>(width * (k + 1));
      std::vector<float> a(n), b(n);
      for (std::vector<float>* row : {&a, &b})
        for (std::int64_t x = 0; x < width; ++x) {
          for (int c = 0; c < k; ++c) (*row)[static_cast<std::size_t>(x * (k + 1) + c)] = static_cast<float>(value(rng));
          const double u = unit(rng);  // weights about the floor, zero, negative
          (*row)[static_cast<std::size_t>(x * (k + 1) + k)] = static_cast<float>(u < 0.1 ? 0.0 : u < 0.2 ? 1e-9 : u < 0.25 ? -0.5 : u);
        }
      const float t = static_cast<float>(unit(rng)), w[2] = {1.0f - t, t};
      const float* pair[2] = {a.data(), b.data()};
      std::vector<float> lerp(n), want(static_cast<std::size_t>(width * k));
      weighted_rows(pair, w, 2, lerp.data(), n);
      divide_row(lerp.data(), want.data(), width, k, floor, empty);
      for (int shift = -1; shift < 16; ++shift) {
        const bool stream = shift >= 0;
        std::vector<float> buffer(static_cast<std::size_t>(width * k) + 48, 5.0f);
        const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(buffer.data());
        const std::size_t lead = stream ? ((64 - base % 64) % 64 / sizeof(float) + static_cast<std::size_t>(shift)) : 0;
        divide_lerp_row(a.data(), b.data(), w[0], w[1], buffer.data() + lead, width, k, floor, empty, stream);
        for (std::size_t i = 0; i < want.size(); ++i)
          ASSERT_EQ(std::memcmp(&buffer[lead + i], &want[i], sizeof(float)), 0)
              << "k " << k << " width " << width << " value " << i << " streamed " << stream << " shift " << shift;
        for (std::size_t i = 0; i < buffer.size(); ++i)
          if (i < lead || i >= lead + want.size())
            ASSERT_EQ(buffer[i], 5.0f) << "outside the row, k " << k << " width " << width << " shift " << shift;
      }
    }
}

// weighted_packed_rows: the bits of pack_nan_row's rows summed by weighted_rows where no pixel is
// mixed, and `mixed` as the packs say - 1 and 3 values a pixel, 4, 8 and 16 rows, widths with every
// tail, rows at every float offset in a line, holes in whole pixels, some channels only, none.
TEST(MissingRowsSimd, WeightedPackedRowsAreThePackedRowsSummed) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> value(-3.0, 3.0), unit(0.0, 1.0);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  int ran = 0;
  for (int k : {1, 3})
    for (int count : {4, 8, 16})
      for (std::int64_t width : {1, 5, 15, 16, 17, 33, 64, 71, 250})
        for (int pattern = 0; pattern < 3; ++pattern) {  // no NaN, whole pixels, some channels only
          const std::size_t n = static_cast<std::size_t>(width * k);
          std::vector<std::vector<float>> source(static_cast<std::size_t>(count), std::vector<float>(n + 16));
          std::vector<const float*> rows;
          bool want_mixed = false;
          for (int j = 0; j < count; ++j) {
            float* row = source[static_cast<std::size_t>(j)].data() + j % 16;  // every offset in a line
            for (std::int64_t x = 0; x < width; ++x) {
              const bool hole = pattern > 0 && unit(rng) < 0.3;
              for (int c = 0; c < k; ++c) {
                const bool nan_here = pattern == 2 && c > 0 && unit(rng) < 0.05 ? !hole : hole;
                want_mixed |= nan_here != hole;
                row[x * k + c] = nan_here ? nan : static_cast<float>(value(rng));
              }
            }
            rows.push_back(row);
          }
          std::vector<float> w(static_cast<std::size_t>(count));
          for (float& v : w) v = static_cast<float>(unit(rng));
          std::vector<std::vector<float>> packed(static_cast<std::size_t>(count), std::vector<float>(static_cast<std::size_t>(width * (k + 1))));
          std::vector<const float*> packed_rows;
          for (int j = 0; j < count; ++j) {
            pack_nan_row(rows[static_cast<std::size_t>(j)], packed[static_cast<std::size_t>(j)].data(), width, k, true);
            packed_rows.push_back(packed[static_cast<std::size_t>(j)].data());
          }
          std::vector<float> want(static_cast<std::size_t>(width * (k + 1))), got(want.size() + 1, 7.0f);
          weighted_rows(packed_rows.data(), w.data(), count, want.data(), want.size());
          bool mixed = false;
          if (!weighted_packed_rows(rows.data(), w.data(), count, got.data(), width, k, true, mixed)) continue;
          ++ran;
          EXPECT_EQ(mixed, want_mixed) << "k " << k << " count " << count << " width " << width << " pattern " << pattern;
          EXPECT_EQ(got.back(), 7.0f) << "written past the row";
          if (want_mixed) continue;  // a mixed image's shared weights are not used
          for (std::size_t i = 0; i < want.size(); ++i)
            ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(float)), 0)
                << "k " << k << " count " << count << " width " << width << " pattern " << pattern << " value " << i;
        }
  EXPECT_GT(ran, 0) << "no target loop ran (k 1 runs on every target)";
}

TEST(MissingRowsSimd, PackAndDivideGiveOneValueAtATimesBits) {
  auto rng = test::rng_for_test();
  check_pack_and_divide<float>(rng);
  check_pack_and_divide<double>(rng);
}

}  // namespace
}  // namespace fastblur::cpu
