// cpu/scipy_int_certified: SciPy's truncated double sums of 8- and 16-bit integers, from float32
// sums with an error bound, give SciPy's own arithmetic's bits on every output - on data made to sit
// on the integers SciPy truncates (flat areas, ramps, lone outliers, noise of one level, values
// about zero where the signed types truncate upward) and at random, over each type's whole range.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cpu/scipy_int_certified.hpp"
#include "fastblur/kernel.hpp"
#include "kernel/certified_int.hpp"
#include "support/test_support.hpp"

namespace fastblur::cpu {
namespace {

const ElementType kTypes[] = {ElementType::u8, ElementType::i8, ElementType::u16, ElementType::i16};

struct Range {
  int lowest, highest;
};
Range range_of(ElementType t) {
  switch (t) {
    case ElementType::i8: return {-128, 127};
    case ElementType::u16: return {0, 65535};
    case ElementType::i16: return {-32768, 32767};
    default: return {0, 255};
  }
}

// The type's bits of value v (two's complement for the signed types), as the output lines hold them.
std::uint32_t bits_of(ElementType t, std::int32_t v) {
  return element_size(t) == 1 ? static_cast<std::uint8_t>(v) : static_cast<std::uint16_t>(v);
}

// Lines of `n` values of type t's range (plus the kernel's reach on both sides) of one kind each.
std::vector<std::int32_t> line_of(ElementType t, int kind, std::size_t n, std::mt19937_64& rng) {
  const Range r = range_of(t);
  std::vector<std::int32_t> v(n);
  std::uniform_int_distribution<int> any(r.lowest, r.highest), small(-1, 1), level(r.lowest + 1, r.highest - 1),
      hundreds(-300, 300);
  const int base = level(rng);
  const auto clamp = [&](int x) { return std::clamp(x, r.lowest, r.highest); };
  for (std::size_t i = 0; i < n; ++i) {
    const int at = static_cast<int>(i);
    switch (kind) {
      case 0: v[i] = any(rng); break;                                        // noise over the whole range
      case 1: v[i] = base; break;                                            // flat
      case 2: v[i] = clamp(base + small(rng)); break;                        // one level of noise
      case 3: v[i] = r.lowest + (at / 3) % (r.highest - r.lowest + 1); break;  // a ramp from the lowest
      case 4: v[i] = rng() % 97 == 0 ? any(rng) : base; break;               // lone outliers
      case 5: v[i] = (at / 17) % 2 ? r.highest : r.lowest; break;            // steps, the extremes
      case 6: v[i] = clamp(small(rng)); break;                               // about zero
      case 7: v[i] = clamp(hundreds(rng) + (r.lowest < 0 ? 0 : 300)); break;  // neighbours a few hundred apart
      default: v[i] = rng() % 5 == 0 ? clamp(base + 1) : base; break;
    }
  }
  return v;
}

std::string label(ElementType t, double sigma, int kind) {
  return std::string(to_string(t)) + " sigma " + std::to_string(sigma) + " kind " + std::to_string(kind);
}

// How many outputs of the last line_bits the bound left to SciPy's double sums.
std::size_t certified_exact = 0;

// Output i < count of a line (8- or 16-bit by the axis's type), as the type's bits.
std::vector<std::uint32_t> line_bits(const float* centre, std::ptrdiff_t step, std::size_t count, const CertifiedIntAxis& k) {
  std::vector<std::uint32_t> got(count);
  if (element_size(k.type) == 1) {
    std::vector<std::uint8_t> out(count);
    certified_exact = certified_int_line(centre, step, out.data(), count, k);
    std::copy(out.begin(), out.end(), got.begin());
  } else {
    std::vector<std::uint16_t> out(count);
    certified_exact = certified_int_line(centre, step, out.data(), count, k);
    std::copy(out.begin(), out.end(), got.begin());
  }
  return got;
}

TEST(ScipyIntCertified, GivesScipysDoubleSumsBitsOnEveryOutput) {
  auto rng = test::rng_for_test();
  std::size_t checked = 0;
  for (ElementType t : kTypes)
    for (double sigma : {0.5, 0.8, 1.0, 1.2, 2.0, 3.5, 6.0, 12.0}) {
      const std::vector<double> w = kernel::gaussian_weights(sigma, kernel::radius_from_truncate(sigma, 4.0));
      ASSERT_TRUE(kernel::certified_int_possible(w)) << sigma;
      const CertifiedIntAxis k = certified_int_axis(w, t);
      for (int kind = 0; kind < 9; ++kind)
        for (std::ptrdiff_t step : {1, 3}) {
          const std::size_t n = 301;  // outputs: vectors and a tail
          const std::vector<std::int32_t> v = line_of(t, kind, (n + 2 * k.radius) * static_cast<std::size_t>(step), rng);
          // Widened from the type's own storage, as the rows driver does.
          std::vector<std::uint8_t> stored(v.size() * element_size(t));
          for (std::size_t i = 0; i < v.size(); ++i) {
            if (element_size(t) == 1) stored[i] = static_cast<std::uint8_t>(v[i]);
            else reinterpret_cast<std::uint16_t*>(stored.data())[i] = static_cast<std::uint16_t>(v[i]);
          }
          std::vector<float> vf(v.size());
          widen_ints(t, stored.data(), vf.data(), v.size());
          ASSERT_TRUE(std::equal(v.begin(), v.end(), vf.begin())) << label(t, sigma, kind);
          const float* centre = vf.data() + k.radius * step;
          const std::size_t count = n * static_cast<std::size_t>(step) - static_cast<std::size_t>(step - 1);
          const std::vector<std::uint32_t> got = line_bits(centre, step, count, k);
          if (kind == 1) EXPECT_EQ(certified_exact, 0u) << label(t, sigma, kind);  // a flat line: the table
          std::vector<std::int32_t> x(2 * static_cast<std::size_t>(k.radius) + 1);
          const auto taps_of = [&](std::size_t i) {
            for (int j = -k.radius; j <= k.radius; ++j)
              x[static_cast<std::size_t>(j + k.radius)] = static_cast<std::int32_t>(centre[static_cast<std::ptrdiff_t>(i) + j * step]);
            return x.data() + k.radius;
          };
          for (std::size_t i = 0; i < count; ++i) {
            ASSERT_EQ(got[i], bits_of(t, scipy_int_value(taps_of(i), k))) << label(t, sigma, kind) << " step " << step << " output " << i;
            ++checked;
          }
          // The same outputs as rows: tap j of output i in row j.
          std::vector<const float*> rows;
          for (int j = -k.radius; j <= k.radius; ++j) rows.push_back(centre + j * step);
          std::vector<float> as_rows(n);
          certified_int_rows(rows.data() + k.radius, 0, as_rows.data(), n, k);
          for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(as_rows[i], static_cast<float>(scipy_int_value(taps_of(i), k))) << "rows: " << label(t, sigma, kind);
        }
    }
  EXPECT_GT(checked, 100000u);
}

// Two output rows at once (unsigned 8-bit: the first tier), tap row j of row A at rows[j] and of row
// B at rows[j + 1]: each row's bits as SciPy's arithmetic, on every kind of data - flat areas send
// vectors to the second tier, every fourth lane flat (an opaque alpha channel) stops the first tier
// for the rest of the line - and lengths with a tail.
TEST(ScipyIntCertified, RowPairsGiveEachRowsBits) {
  auto rng = test::rng_for_test();
  for (ElementType t : {ElementType::u8, ElementType::b8})
    for (double sigma : {0.5, 1.2, 2.0, 6.0}) {
      const std::vector<double> w = kernel::gaussian_weights(sigma, kernel::radius_from_truncate(sigma, 4.0));
      const CertifiedIntAxis k = certified_int_axis(w, t);
      ASSERT_GT(k.quick_bound, 0.0f);
      const std::size_t taps = 2 * static_cast<std::size_t>(k.radius) + 2;
      for (int kind = 0; kind < 10; ++kind)
        for (std::size_t n : {std::size_t{333}, std::size_t{2048}}) {
          std::vector<std::vector<float>> rows(taps);
          for (auto& row : rows) {
            const std::vector<std::int32_t> v = line_of(ElementType::u8, kind == 9 ? 0 : kind, n, rng);
            row.assign(v.begin(), v.end());
            if (t == ElementType::b8) for (float& f : row) f = f > 127 ? 1.0f : 0.0f;
            if (kind == 9) for (std::size_t i = 3; i < n; i += 4) row[i] = 255.0f;  // alpha: flat every fourth lane
          }
          std::vector<const float*> at;
          for (const auto& row : rows) at.push_back(row.data());
          std::vector<float> a(n), b(n);
          certified_int_rows_pair(at.data() + k.radius, a.data(), b.data(), n, k);
          std::vector<std::int32_t> x(2 * static_cast<std::size_t>(k.radius) + 1);
          for (int which = 0; which < 2; ++which)
            for (std::size_t i = 0; i < n; ++i) {
              for (std::size_t j = 0; j < x.size(); ++j) x[j] = static_cast<std::int32_t>(rows[j + static_cast<std::size_t>(which)][i]);
              ASSERT_EQ((which ? b : a)[i], static_cast<float>(scipy_int_value(x.data() + k.radius, k)))
                  << label(t, sigma, kind) << " row " << which << " output " << i << " of " << n;
            }
        }
    }
}

// A channel known one level through every tap (an opaque alpha channel: KnownChannels) takes that
// level's flat result in the first tier; every output, the known channel's and the others', keeps
// SciPy's bits - for every level (some truncate one toward zero), 1 to 4 channels (3 does not divide
// the lanes: ignored), in the rows, row pairs and lines, lengths with a tail.
TEST(ScipyIntCertified, KnownChannelsKeepEveryOutputsBits) {
  auto rng = test::rng_for_test();
  for (double sigma : {0.7, 2.0, 5.0}) {
    const std::vector<double> w = kernel::gaussian_weights(sigma, kernel::radius_from_truncate(sigma, 4.0));
    const CertifiedIntAxis k = certified_int_axis(w, ElementType::u8);
    const std::size_t taps = 2 * static_cast<std::size_t>(k.radius) + 2, n = 1000;
    std::vector<std::int32_t> x(2 * static_cast<std::size_t>(k.radius) + 1);
    for (int channels = 1; channels <= 4; ++channels)
      for (int level = 0; level < 256; level += channels == 1 ? 1 : 17) {
        const int c_known = channels - 1;
        std::vector<std::vector<float>> rows(taps);
        const int kind = level % 3 == 0 ? 0 : 2;  // the other channels: noise, or one level of noise
        for (auto& row : rows) {
          const std::vector<std::int32_t> v = line_of(ElementType::u8, kind, n, rng);
          row.assign(v.begin(), v.end());
          for (std::size_t i = static_cast<std::size_t>(c_known); i < n; i += static_cast<std::size_t>(channels))
            row[i] = static_cast<float>(level);
        }
        KnownChannels known;
        known.channels = channels;
        known.known = 1u << c_known;
        known.result[c_known] = certified_flat_result(k, static_cast<float>(level));
        std::vector<const float*> at;
        for (const auto& row : rows) at.push_back(row.data());
        std::vector<float> a(n), b(n), one(n);
        std::vector<std::uint8_t> line(n - 2 * static_cast<std::size_t>(k.radius) * channels);
        certified_int_rows_pair(at.data() + k.radius, a.data(), b.data(), n, k, known, known);
        certified_int_rows(at.data() + k.radius, 0, one.data(), n, k, known);
        const float* centre = rows[0].data() + k.radius * channels;
        certified_int_line(centre, channels, line.data(), line.size(), k, known);
        const std::string where = "sigma " + std::to_string(sigma) + ", " + std::to_string(channels) + " channels, level " +
                                  std::to_string(level) + ", output ";
        for (int which = 0; which < 2; ++which)
          for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < x.size(); ++j) x[j] = static_cast<std::int32_t>(rows[j + static_cast<std::size_t>(which)][i]);
            const auto want = static_cast<float>(scipy_int_value(x.data() + k.radius, k));
            ASSERT_EQ((which ? b : a)[i], want) << where << i << " of row " << which;
            if (which == 0) ASSERT_EQ(one[i], want) << where << i << " (one row)";
          }
        for (std::size_t i = 0; i < line.size(); ++i) {
          for (int j = -k.radius; j <= k.radius; ++j)
            x[static_cast<std::size_t>(j + k.radius)] = static_cast<std::int32_t>(centre[static_cast<std::ptrdiff_t>(i) + j * channels]);
          ASSERT_EQ(line[i], static_cast<std::uint8_t>(scipy_int_value(x.data() + k.radius, k))) << where << i << " (line)";
        }
      }
  }
}

// constant_channels finds the channels of one level and their levels (a change in the tail, in the
// first vector or the last counts), and claims none where the channels do not divide the lanes.
TEST(ScipyIntCertified, ConstantChannelsAreFound) {
  auto rng = test::rng_for_test();
  for (int channels = 1; channels <= 5; ++channels)
    for (std::size_t pixels : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{333}})
      for (int trial = 0; trial < 40; ++trial) {
        const std::size_t n = pixels * static_cast<std::size_t>(channels);
        std::vector<float> row(n);
        std::uint32_t want = 0;
        for (int c = 0; c < channels; ++c) {
          const bool constant = rng() % 2 == 0;
          const auto level = static_cast<float>(rng() % 256);
          for (std::size_t i = static_cast<std::size_t>(c); i < n; i += static_cast<std::size_t>(channels))
            row[i] = constant ? level : static_cast<float>(rng() % 256);
          if (constant && pixels > 1) {  // one change somewhere, sometimes
            const std::size_t p = rng() % pixels;
            if (rng() % 2) row[p * channels + c] = level + 1.0f;
            else want |= 1u << c;
          } else if (constant) {
            want |= 1u << c;
          }
          if (!constant && pixels == 1) want |= 1u << c;  // one pixel: every channel is one level
        }
        float levels[KnownChannels::kMaxChannels] = {};
        const std::uint32_t got = constant_channels(row.data(), n, channels, levels);
        if (channels > KnownChannels::kMaxChannels) {
          ASSERT_EQ(got, 0u);
          continue;
        }
        if (got == 0 && channels == 3) continue;  // 3 channels: none claimed where they do not divide the lanes
        ASSERT_EQ(got, want) << channels << " channels, " << pixels << " pixels, trial " << trial;
        for (int c = 0; c < channels; ++c)
          if ((got >> c) & 1u) ASSERT_EQ(levels[c], row[static_cast<std::size_t>(c)]);
      }
}

// SciPy's value is not the rounded real sum: a flat area's sum of weights off 1 truncates some
// levels one toward zero (the table keeps SciPy's), so a float32 sum rounded would miss them. Every
// level of every type; 69 outputs: whole vectors and a tail of SciPy's double sums (a clang build
// fused that tail's multiply and add).
TEST(ScipyIntCertified, FlatAreasKeepScipysTruncation) {
  for (ElementType t : kTypes) {
    int toward_zero = 0;
    const Range r = range_of(t);
    for (double sigma : {0.5, 0.7, 1.2, 2.0, 3.0, 5.0}) {
      const std::vector<double> w = kernel::gaussian_weights(sigma, kernel::radius_from_truncate(sigma, 4.0));
      const CertifiedIntAxis k = certified_int_axis(w, t);
      std::vector<float> v(69 + 2 * static_cast<std::size_t>(k.radius));
      for (int level = r.lowest; level <= r.highest; ++level) {
        std::fill(v.begin(), v.end(), static_cast<float>(level));
        const std::vector<std::uint32_t> got = line_bits(v.data() + k.radius, 1, 69, k);
        std::vector<std::int32_t> x(v.begin(), v.end());
        const std::int32_t want = scipy_int_value(x.data() + k.radius, k);
        for (std::uint32_t g : got) ASSERT_EQ(g, bits_of(t, want)) << label(t, sigma, 1) << " level " << level;
        toward_zero += want != level;
      }
    }
    RecordProperty(std::string("levels_toward_zero_") + std::string(to_string(t)), toward_zero);
  }
}

// Windows found to sum within 2e-5 of an integer (float32's own rounding at sums of about 100), as
// rows (tap j of output i at rows[j][i]): the bound sends them to SciPy's double sums. Summed in
// float32 without the bound, some land on the wrong side of the integer (a zero bound fails this).
// Signed types: also sums within 2e-5 of zero, where the truncation's direction turns.
TEST(ScipyIntCertified, SumsNearAnIntegerGoToScipysDoubleSums) {
  auto rng = test::rng_for_test();
  for (ElementType t : {ElementType::u8, ElementType::i16})
    for (double sigma : {1.2, 2.0}) {
      const std::vector<double> w = kernel::gaussian_weights(sigma, kernel::radius_from_truncate(sigma, 4.0));
      const CertifiedIntAxis k = certified_int_axis(w, t);
      const std::size_t taps = 2 * static_cast<std::size_t>(k.radius) + 1;
      std::vector<std::vector<float>> rows(taps);
      // int16 windows of values about zero: the sum's sign and its integer both close.
      std::uniform_int_distribution<int> value(t == ElementType::u8 ? 0 : -200, t == ElementType::u8 ? 255 : 200);
      for (int tries = 0; tries < 2000000 && rows[0].size() < 256; ++tries) {
        std::vector<int> x(taps);
        for (int& v : x) v = value(rng);
        long double r = 0;  // the real sum of e_k w_k
        for (int j = 1; j <= k.radius; ++j)
          r += static_cast<long double>(x[static_cast<std::size_t>(k.radius - j)] + x[static_cast<std::size_t>(k.radius + j)] -
                                        2 * x[static_cast<std::size_t>(k.radius)]) * k.centre[-j];
        const long double frac = r - std::floor(r);
        if (frac > 2e-5L && frac < 1 - 2e-5L) continue;
        for (std::size_t j = 0; j < taps; ++j) rows[j].push_back(static_cast<float>(x[j]));
      }
      const std::size_t n = rows[0].size();
      ASSERT_GT(n, 16u) << label(t, sigma, 0);
      std::vector<const float*> at;
      for (const auto& row : rows) at.push_back(row.data());
      std::vector<float> got(n);
      const std::size_t exact = certified_int_rows(at.data() + k.radius, 0, got.data(), n, k);
      EXPECT_GT(exact, n / 2) << label(t, sigma, 0);  // most of them: they sit within the bound
      std::vector<std::int32_t> x(taps);
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < taps; ++j) x[j] = static_cast<std::int32_t>(rows[j][i]);
        ASSERT_EQ(got[i], static_cast<float>(scipy_int_value(x.data() + k.radius, k))) << label(t, sigma, 0) << " window " << i;
      }
    }
}

TEST(ScipyIntCertified, TakesSymmetricPositiveOddKernelsOnly) {
  EXPECT_TRUE(kernel::certified_int_possible({0.25, 0.5, 0.25}));
  EXPECT_FALSE(kernel::certified_int_possible({0.5, 0.5}));               // even
  EXPECT_FALSE(kernel::certified_int_possible({0.25, 0.5, 0.2500001}));  // not symmetric
  EXPECT_FALSE(kernel::certified_int_possible({-0.1, 1.2, -0.1}));       // negative weights
  EXPECT_FALSE(kernel::certified_int_possible({0.0, 1.0, 0.0}));         // a zero weight
  EXPECT_FALSE(kernel::certified_int_possible({1.0}));                   // no taps
}

TEST(ScipyIntCertified, TakesTheTypesIntegersAndTheirCvals) {
  for (ElementType t : {ElementType::b8, ElementType::u8, ElementType::i8, ElementType::u16, ElementType::i16})
    EXPECT_TRUE(kernel::certified_int_types(t, t)) << to_string(t);
  EXPECT_FALSE(kernel::certified_int_types(ElementType::u8, ElementType::u16));
  for (ElementType t : {ElementType::i32, ElementType::u32, ElementType::f16, ElementType::f32, ElementType::f64})
    EXPECT_FALSE(kernel::certified_int_types(t, t)) << to_string(t);
  EXPECT_TRUE(kernel::cval_fits_certified_int(ElementType::i16, -32768.0));
  EXPECT_FALSE(kernel::cval_fits_certified_int(ElementType::i16, 32768.0));
  EXPECT_TRUE(kernel::cval_fits_certified_int(ElementType::u16, 65535.0));
  EXPECT_FALSE(kernel::cval_fits_certified_int(ElementType::u16, -1.0));
  EXPECT_TRUE(kernel::cval_fits_certified_int(ElementType::i8, -128.0));
  EXPECT_FALSE(kernel::cval_fits_certified_int(ElementType::i8, 128.0));
  EXPECT_FALSE(kernel::cval_fits_certified_int(ElementType::u8, 2.5));
  EXPECT_FALSE(kernel::cval_fits_certified_int(ElementType::u8, 256.0));
}

}  // namespace
}  // namespace fastblur::cpu
