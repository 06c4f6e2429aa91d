// Dual Kawase schedules: the variance recursion against a plain simulation of the passes, solved
// offsets exact for any sigma, monotone, the level rule near the best level, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "fastblur/error.hpp"
#include "fastblur/kernel_dual_kawase.hpp"
#include "support/test_support.hpp"

namespace fastblur::kernel {
namespace {

// A GPU's linear fetch at position p (texel i centred at i + 1/2) of a line that is zero beyond it.
double fetch(const std::vector<double>& s, double p) {
  const double u = p - 0.5, f = std::floor(u), t = u - f;
  const auto at = [&](double i) { return i >= 0 && i < static_cast<double>(s.size()) ? s[static_cast<std::size_t>(i)] : 0.0; };
  return (1 - t) * at(f) + t * at(f + 1);
}

// The passes along one axis, written from Bjorge's taps with the other axis summed out: a down
// pass's four diagonal taps leave half a fetch at +-h each, an up pass's taps at (0, +-2h) leave
// two fetches at the centre.
std::vector<double> plain_chain(std::vector<double> s, int levels, double d) {
  const double h = d / 2;
  for (int l = 0; l < levels; ++l) {
    std::vector<double> t(s.size() / 2);
    for (std::size_t k = 0; k < t.size(); ++k) {
      const double c = 2.0 * k + 1;
      t[k] = 4.0 / 8 * fetch(s, c) + 2.0 / 8 * (fetch(s, c + h) + fetch(s, c - h));
    }
    s = t;
  }
  for (int l = 0; l < levels; ++l) {
    std::vector<double> t(s.size() * 2);
    for (std::size_t j = 0; j < t.size(); ++j) {
      const double c = (j + 0.5) / 2;
      t[j] = (fetch(s, c + 2 * h) + fetch(s, c - 2 * h)) / 12 + 2 * fetch(s, c) / 12 +
             4 * (fetch(s, c + h) + fetch(s, c - h)) / 12;
    }
    s = t;
  }
  return s;
}

// The phase-averaged second moment about the impulse, by simulation; also checks each phase's
// response against dual_kawase_marginal.
double simulated_variance(int levels, double d) {
  const int block = 1 << levels;
  const int n = block * (2 * static_cast<int>(std::ceil((block * (2.5 * d + 3) + 8) / block)) + 4);
  double v = 0;
  for (int phase = 0; phase < block; ++phase) {
    std::vector<double> line(static_cast<std::size_t>(n), 0.0);
    const int pos = n / 2 / block * block + phase;
    line[static_cast<std::size_t>(pos)] = 1;
    const std::vector<double> h = plain_chain(line, levels, d);
    double m0 = 0, m2 = 0;
    for (int i = 0; i < n; ++i) m0 += h[i], m2 += h[i] * (i - pos) * double(i - pos);
    EXPECT_NEAR(m0, 1.0, 1e-12);
    v += m2 / block;
    const std::vector<double> k = dual_kawase_marginal(levels, d, phase);
    const int half = static_cast<int>(k.size() / 2);
    double inside = 0;
    for (int i = -half; i <= half; ++i) {
      EXPECT_NEAR(k[static_cast<std::size_t>(i + half)], h[static_cast<std::size_t>(pos + i)], 1e-14);
      inside += k[static_cast<std::size_t>(i + half)];
    }
    EXPECT_NEAR(inside, 1.0, 1e-12) << "the marginal is wide enough";
  }
  return v;
}

TEST(DualKawase, VarianceEqualsTheSimulatedPasses) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> u(0.0, 6.0);
  for (int levels = 1; levels <= 5; ++levels)
    for (double d : {0.0, 0.25, 0.5, 1.0, 1.5, 2.0, u(rng), u(rng)}) {
      const double v = dual_kawase_variance(levels, d);
      EXPECT_NEAR(v, simulated_variance(levels, d), 1e-9 * v) << levels << " " << d;
    }
}

TEST(DualKawase, MinimumIsTheBoxAndBilinearChain) {
  for (int levels = 1; levels <= kDualKawaseMaxLevels; ++levels) {
    const double least = (std::ldexp(1.0, 2 * levels) - 1) / 3;  // (4^L - 1) / 3
    EXPECT_NEAR(dual_kawase_variance(levels, 0.0), least, 1e-12 * least);
    EXPECT_NEAR(dual_kawase_variance(levels, 0.25), least, 1e-12 * least);
    EXPECT_GT(dual_kawase_variance(levels, 0.26), least * (1 + 1e-6));
    EXPECT_NEAR(dual_kawase_min_sigma(levels), std::sqrt(least), 1e-12 * least);
  }
  EXPECT_EQ(dual_kawase_min_sigma(1), kDualKawaseMinSigma);
  EXPECT_EQ(dual_kawase_solve_offset(kDualKawaseMinSigma, 1), 0.0);
}

TEST(DualKawase, SolvedOffsetsMatchAnySigmaExactly) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> log_sigma(0.0, std::log(300.0));
  for (int trial = 0; trial < 60; ++trial) {
    const double sigma = std::exp(log_sigma(rng));
    const int chosen = dual_kawase_levels_for(sigma);
    for (int levels : {chosen, 1, std::max(1, chosen - 1)}) {
      const double d = dual_kawase_solve_offset(sigma, levels);
      EXPECT_NEAR(dual_kawase_variance(levels, d), sigma * sigma, 1e-9 * sigma * sigma) << sigma << " " << levels;
    }
    const DualKawaseSchedule s = dual_kawase_schedule(sigma, sigma);
    EXPECT_EQ(s.levels, chosen);
    EXPECT_EQ(s.offset[0], s.offset[1]);
    EXPECT_NEAR(dual_kawase_variance(s.levels, s.offset[0]), sigma * sigma, 1e-9 * sigma * sigma);
  }
}

TEST(DualKawase, Monotone) {
  for (int levels = 1; levels <= 6; ++levels) {
    double prev = dual_kawase_variance(levels, 0.25);
    for (double d = 0.26; d < 12; d += 0.01) {  // strictly increasing above 1/4
      const double v = dual_kawase_variance(levels, d);
      EXPECT_GT(v, prev) << levels << " " << d;
      prev = v;
    }
  }
  int prev_levels = 1;
  double prev_offset = -1;
  for (double sigma = 1.0; sigma < 400; sigma *= 1.03) {
    const int levels = dual_kawase_levels_for(sigma);
    EXPECT_GE(levels, prev_levels) << sigma;  // more blur, never fewer levels
    EXPECT_LE(levels, prev_levels + 1) << sigma;
    const double d = dual_kawase_solve_offset(sigma, levels);
    if (levels == prev_levels) EXPECT_GT(d, prev_offset) << sigma;  // and a wider offset at the same levels
    if (levels >= 3) {                                                 // the window of the rule
      EXPECT_GE(d, 1.49) << sigma;
      EXPECT_LE(d, 3.45) << sigma;
    }
    prev_levels = levels;
    prev_offset = d;
  }
}

TEST(DualKawase, TheLevelRuleIsNearTheBestLevel) {
  // At each sigma, the chosen number of levels against one more and one fewer (where they reach
  // sigma): its worst-phase max error is within 0.01 of the best of them.
  for (double sigma = 2.0; sigma <= 50.0; sigma *= 1.09) {
    const int chosen = dual_kawase_levels_for(sigma);
    const double mine = dual_kawase_error(chosen, dual_kawase_solve_offset(sigma, chosen));
    double best = mine;
    int best_levels = chosen;
    for (int levels : {chosen - 1, chosen + 1}) {
      if (levels < 1 || dual_kawase_min_sigma(levels) > sigma) continue;
      const double e = dual_kawase_error(levels, dual_kawase_solve_offset(sigma, levels));
      if (e < best) best = e, best_levels = levels;
    }
    std::printf("[ measured ] dual-kawase sigma %6.2f: %d levels, offset %.3f, worst-phase max error %.4f "
                "(best %d levels: %.4f)\n", sigma, chosen, dual_kawase_solve_offset(sigma, chosen), mine, best_levels, best);
    EXPECT_LE(mine, best + 0.01) << sigma;
    // The envelope documented with dual_kawase_levels_for.
    EXPECT_LE(mine, sigma < 3.5 ? 0.334 : sigma < 5 ? 0.274 : sigma < 9 ? 0.154 : sigma < 20 ? 0.146 : 0.124) << sigma;
  }
}

TEST(DualKawase, AnisotropicAndExplicitSchedules) {
  const DualKawaseSchedule a = dual_kawase_schedule(3.0, 20.0);
  EXPECT_EQ(a.levels, std::min(dual_kawase_levels_for(3.0), dual_kawase_levels_for(20.0)));
  EXPECT_NEAR(dual_kawase_variance(a.levels, a.offset[0]), 9.0, 1e-9 * 9);
  EXPECT_NEAR(dual_kawase_variance(a.levels, a.offset[1]), 400.0, 1e-9 * 400);
  const DualKawaseSchedule b = dual_kawase_schedule(10.0, 10.0, 2);
  EXPECT_EQ(b.levels, 2);
  EXPECT_NEAR(dual_kawase_variance(2, b.offset[0]), 100.0, 1e-9 * 100);
  // An explicit offset is used as it is; with levels 0, the levels nearest sigma at that offset.
  const DualKawaseSchedule c = dual_kawase_schedule(12.0, 12.0, 0, 1.0);
  EXPECT_EQ(c.offset[0], 1.0);
  EXPECT_EQ(c.offset[1], 1.0);
  EXPECT_EQ(c.levels, 4);  // sigma 7.0 at 3 levels, 14.08 at 4: 4 is nearer 12 in ratio
  const DualKawaseSchedule e = dual_kawase_schedule(5.0, 5.0, 4, 2.5);
  EXPECT_EQ(e.levels, 4);
  EXPECT_EQ(e.offset[0], 2.5);
}

TEST(DualKawase, RejectsBadInput) {
  EXPECT_THROW(dual_kawase_variance(0, 1.0), InvalidArgument);
  EXPECT_THROW(dual_kawase_variance(kDualKawaseMaxLevels + 1, 1.0), InvalidArgument);
  EXPECT_THROW(dual_kawase_variance(2, -0.5), InvalidArgument);
  EXPECT_THROW(dual_kawase_variance(2, NAN), InvalidArgument);
  EXPECT_THROW(dual_kawase_variance(2, 2 * kDualKawaseMaxOffset), InvalidArgument);
  EXPECT_THROW(dual_kawase_levels_for(0.99), InvalidArgument);
  EXPECT_THROW(dual_kawase_levels_for(NAN), InvalidArgument);
  EXPECT_THROW(dual_kawase_solve_offset(0.5, 1), InvalidArgument);
  EXPECT_THROW(dual_kawase_solve_offset(2.0, 2), InvalidArgument);  // below 2 levels' sqrt(5)
  EXPECT_THROW(dual_kawase_schedule(2.0, 2.0, 2), InvalidArgument);
  EXPECT_THROW(dual_kawase_schedule(0.5, 5.0), InvalidArgument);
  EXPECT_THROW(dual_kawase_schedule(5.0, INFINITY), InvalidArgument);
  EXPECT_THROW(dual_kawase_schedule(5.0, 5.0, 0, -1.0), InvalidArgument);
  EXPECT_THROW(dual_kawase_marginal(2, 1.0, 4), InvalidArgument);
  try {
    dual_kawase_levels_for(0.5);
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("smallest sigma is 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace fastblur::kernel
