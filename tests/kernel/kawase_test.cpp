#include <gtest/gtest.h>

#include <cmath>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {
namespace {

double variance_of(const std::vector<double>& k) {
  const double c = (k.size() - 1) / 2.0;
  double v = 0.0;
  for (std::size_t i = 0; i < k.size(); ++i) v += k[i] * (i - c) * (i - c);
  return v;
}

TEST(Kawase, PassWeightsAndVariance) {
  for (double d : {0.0, 0.3, 0.5, 1.0, 1.5, 2.75, 7.2}) {
    const auto w = kawase_pass_weights(d);
    double sum = 0.0;
    for (double v : w) sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-15);
    EXPECT_NEAR(variance_of(w), kawase_pass_variance(d), 1e-12) << d;
  }
  // The classic pass k = 1 (d = 1.5): a quarter at -2, -1, 1, 2.
  const auto w = kawase_pass_weights(1.5);
  EXPECT_EQ(w, (std::vector<double>{0.25, 0.25, 0.0, 0.25, 0.25}));
  EXPECT_DOUBLE_EQ(kawase_pass_variance(2.5), 6.5);  // k^2 + k + 1/2
  EXPECT_THROW(kawase_pass_variance(-1.0), InvalidArgument);
}

TEST(Kawase, SeedPresets) {
  EXPECT_NEAR(std::sqrt(variance_of(kawase_kernel(kawase_preset_01223()))), std::sqrt(28.5), 1e-12);
  EXPECT_NEAR(std::sqrt(variance_of(kawase_kernel(kawase_preset_2333()))), std::sqrt(44.0), 1e-12);
}

TEST(Kawase, SchedulesMatchAnySigmaExactly) {
  for (double sigma = 0.3; sigma < 120; sigma *= 1.41)
    for (int passes : {0, 1, 2, 5, 9}) {
      const auto s = kawase_schedule(sigma, passes);
      if (passes) EXPECT_EQ(s.size(), static_cast<std::size_t>(passes));
      double v = 0.0;
      for (double d : s) v += kawase_pass_variance(d);
      EXPECT_NEAR(v, sigma * sigma, 1e-9 * sigma * sigma) << sigma << " " << passes;
      for (std::size_t i = 1; i < s.size(); ++i) EXPECT_GT(s[i], s[i - 1]);  // growing, like Kawase's
    }
}

TEST(Kawase, ChosenSchedulesStayCloseToTheGaussian) {
  for (double sigma : {1.0, 2.0, 3.3, 5.0, 10.0, 20.0, 50.0}) {
    const auto s = kawase_schedule(sigma);
    const double e = kawase_schedule_error(s, sigma);
    std::printf("[ measured ] kawase schedule sigma %5.1f: %2zu passes, offsets %.3f .. %.3f, max error %.4f\n", sigma,
                s.size(), s.front(), s.back(), e);
    EXPECT_LE(e, kKawaseTargetError) << sigma;
  }
  // The seed's presets, measured against the Gaussian of their own sigma: far from Gaussian, which
  // is what the solved schedules fix.
  const double preset_a = kawase_schedule_error(kawase_preset_01223(), std::sqrt(28.5));
  const double preset_b = kawase_schedule_error(kawase_preset_2333(), std::sqrt(44.0));
  std::printf("[ measured ] kawase presets {0,1,2,2,3} (sigma 5.34): max error %.4f; {2,3,3,3} (sigma 6.63): %.4f\n",
              preset_a, preset_b);
  EXPECT_LE(preset_a, 0.14);
  EXPECT_GT(preset_a, 3 * kawase_schedule_error(kawase_schedule(std::sqrt(28.5)), std::sqrt(28.5)));
}

}  // namespace
}  // namespace fastblur::kernel
