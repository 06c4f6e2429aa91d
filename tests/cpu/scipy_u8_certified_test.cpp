// cpu/scipy_u8_certified: SciPy's truncated double sums of 8-bit values, from float32 sums with an
// error bound, give SciPy's own arithmetic's bits on every output - on data made to sit on the
// integers SciPy truncates (flat areas, ramps, lone outliers, noise of one level) and at random.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cpu/scipy_u8_certified.hpp"
#include "fastblur/kernel.hpp"
#include "kernel/certified_u8.hpp"
#include "support/test_support.hpp"

namespace fastblur::cpu {
namespace {

// Lines of `n` values (plus the kernel's reach on both sides) of one kind each.
std::vector<std::uint8_t> line_of(int kind, std::size_t n, std::mt19937_64& rng) {
  std::vector<std::uint8_t> v(n);
  std::uniform_int_distribution<int> byte(0, 255), small(-1, 1), level(1, 254);
  const int base = level(rng);
  for (std::size_t i = 0; i < n; ++i) {
    switch (kind) {
      case 0: v[i] = static_cast<std::uint8_t>(byte(rng)); break;                        // noise
      case 1: v[i] = static_cast<std::uint8_t>(base); break;                             // flat
      case 2: v[i] = static_cast<std::uint8_t>(base + small(rng)); break;                // one level of noise
      case 3: v[i] = static_cast<std::uint8_t>((i / 3) % 256); break;                    // a ramp
      case 4: v[i] = static_cast<std::uint8_t>(rng() % 97 == 0 ? byte(rng) : base); break;  // lone outliers
      case 5: v[i] = static_cast<std::uint8_t>((i / 17) % 2 ? 255 : 0); break;           // steps, the extremes
      default: v[i] = static_cast<std::uint8_t>(rng() % 5 == 0 ? base + 1 : base); break;
    }
  }
  return v;
}

TEST(ScipyU8Certified, GivesScipysDoubleSumsBitsOnEveryOutput) {
  auto rng = test::rng_for_test();
  std::size_t checked = 0;
  for (double sigma : {0.5, 0.8, 1.0, 1.2, 2.0, 3.5, 6.0, 12.0}) {
    const std::vector<double> w = kernel::gaussian_weights(sigma, kernel::radius_from_truncate(sigma, 4.0));
    ASSERT_TRUE(kernel::certified_u8_possible(w)) << sigma;
    const CertifiedU8Axis k = certified_u8_axis(w);
    for (int kind = 0; kind < 7; ++kind)
      for (std::ptrdiff_t step : {1, 3}) {
        const std::size_t n = 301;  // outputs: vectors and a tail
        const std::vector<std::uint8_t> v = line_of(kind, (n + 2 * k.radius) * static_cast<std::size_t>(step), rng);
        std::vector<float> vf(v.size());
        widen_u8(v.data(), vf.data(), v.size());
        ASSERT_TRUE(std::equal(v.begin(), v.end(), vf.begin()));
        const float* centre = vf.data() + k.radius * step;
        std::vector<std::uint8_t> got(n * static_cast<std::size_t>(step));
        certified_u8_line(centre, step, got.data(), got.size() - static_cast<std::size_t>(step - 1), k);
        std::vector<std::int32_t> x(2 * static_cast<std::size_t>(k.radius) + 1);
        for (std::size_t i = 0; i + static_cast<std::size_t>(step - 1) < got.size(); ++i) {
          for (int j = -k.radius; j <= k.radius; ++j)
            x[static_cast<std::size_t>(j + k.radius)] = static_cast<std::int32_t>(centre[static_cast<std::ptrdiff_t>(i) + j * step]);
          ASSERT_EQ(got[i], scipy_u8_value(x.data() + k.radius, k))
              << "sigma " << sigma << " kind " << kind << " step " << step << " output " << i;
          ++checked;
        }
        // The same outputs as rows: tap j of output i in row j.
        std::vector<const float*> rows;
        for (int j = -k.radius; j <= k.radius; ++j) rows.push_back(centre + j * step);
        std::vector<float> as_rows(n);
        certified_u8_rows(rows.data() + k.radius, 0, as_rows.data(), n, k);
        for (std::size_t i = 0; i < n; ++i) {
          for (int j = -k.radius; j <= k.radius; ++j)
            x[static_cast<std::size_t>(j + k.radius)] = static_cast<std::int32_t>(centre[static_cast<std::ptrdiff_t>(i) + j * step]);
          ASSERT_EQ(as_rows[i], scipy_u8_value(x.data() + k.radius, k)) << "rows: sigma " << sigma << " kind " << kind;
        }
      }
  }
  EXPECT_GT(checked, 30000u);
}

// SciPy's value is not the rounded real sum: a flat area's sum of weights off 1 truncates some
// levels to one less (the table keeps SciPy's), so a float32 sum rounded would miss them. 69 outputs:
// whole vectors and a tail of SciPy's double sums (a clang build fused that tail's multiply and add).
TEST(ScipyU8Certified, FlatAreasKeepScipysTruncation) {
  int below = 0;
  for (double sigma : {0.5, 0.7, 1.2, 2.0, 3.0, 5.0}) {
    const std::vector<double> w = kernel::gaussian_weights(sigma, kernel::radius_from_truncate(sigma, 4.0));
    const CertifiedU8Axis k = certified_u8_axis(w);
    std::vector<float> v(69 + 2 * static_cast<std::size_t>(k.radius));
    for (int level = 0; level < 256; ++level) {
      std::fill(v.begin(), v.end(), static_cast<float>(level));
      std::vector<std::uint8_t> got(69);
      certified_u8_line(v.data() + k.radius, 1, got.data(), got.size(), k);
      std::vector<std::int32_t> x(v.begin(), v.end());
      const std::uint8_t want = scipy_u8_value(x.data() + k.radius, k);
      for (std::uint8_t g : got) ASSERT_EQ(g, want) << "sigma " << sigma << " level " << level;
      below += want < level;
    }
  }
  RecordProperty("levels_truncated_below", below);
}

// Windows found to sum within 2e-5 of an integer (float32's own rounding at sums of about 100), as
// rows (tap j of output i at rows[j][i]): the bound sends them to SciPy's double sums. Summed in
// float32 without the bound, some land on the wrong side of the integer (a zero bound fails this).
TEST(ScipyU8Certified, SumsNearAnIntegerGoToScipysDoubleSums) {
  auto rng = test::rng_for_test();
  for (double sigma : {1.2, 2.0}) {
    const std::vector<double> w = kernel::gaussian_weights(sigma, kernel::radius_from_truncate(sigma, 4.0));
    const CertifiedU8Axis k = certified_u8_axis(w);
    const std::size_t taps = 2 * static_cast<std::size_t>(k.radius) + 1;
    std::vector<std::vector<float>> rows(taps);
    std::uniform_int_distribution<int> byte(0, 255);
    for (int tries = 0; tries < 2000000 && rows[0].size() < 256; ++tries) {
      std::vector<int> x(taps);
      for (int& v : x) v = byte(rng);
      long double r = 0;  // x0 + the real sum of e_k w_k
      for (int j = 1; j <= k.radius; ++j)
        r += static_cast<long double>(x[static_cast<std::size_t>(k.radius - j)] + x[static_cast<std::size_t>(k.radius + j)] -
                                      2 * x[static_cast<std::size_t>(k.radius)]) * k.centre[-j];
      const long double frac = r - std::floor(r);
      if (frac > 2e-5L && frac < 1 - 2e-5L) continue;
      for (std::size_t j = 0; j < taps; ++j) rows[j].push_back(static_cast<float>(x[j]));
    }
    const std::size_t n = rows[0].size();
    ASSERT_GT(n, 16u) << "sigma " << sigma;
    std::vector<const float*> at;
    for (const auto& row : rows) at.push_back(row.data());
    std::vector<float> got(n);
    certified_u8_rows(at.data() + k.radius, 0, got.data(), n, k);
    std::vector<std::int32_t> x(taps);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < taps; ++j) x[j] = static_cast<std::int32_t>(rows[j][i]);
      ASSERT_EQ(got[i], scipy_u8_value(x.data() + k.radius, k)) << "sigma " << sigma << " window " << i;
    }
  }
}

TEST(ScipyU8Certified, TakesSymmetricPositiveOddKernelsOnly) {
  EXPECT_TRUE(kernel::certified_u8_possible({0.25, 0.5, 0.25}));
  EXPECT_FALSE(kernel::certified_u8_possible({0.5, 0.5}));               // even
  EXPECT_FALSE(kernel::certified_u8_possible({0.25, 0.5, 0.2500001}));  // not symmetric
  EXPECT_FALSE(kernel::certified_u8_possible({-0.1, 1.2, -0.1}));       // negative weights
  EXPECT_FALSE(kernel::certified_u8_possible({0.0, 1.0, 0.0}));         // a zero weight
  EXPECT_FALSE(kernel::certified_u8_possible({1.0}));                   // no taps
}

}  // namespace
}  // namespace fastblur::cpu
