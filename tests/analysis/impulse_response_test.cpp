#include <gtest/gtest.h>

#include <cmath>

#include "fastblur/analysis.hpp"
#include "fastblur/blur.hpp"

namespace fastblur::analysis {
namespace {

TEST(ImpulseResponse, FirIsTheGaussian) {
  for (double sigma : {1.0, 3.0, 10.0}) {
    BlurSpec spec;
    spec.algorithm = Algorithm::fir;
    spec.truncate = 8.0;  // the reference shape is normalised over +-8 sigma
    const auto m = measure_impulse(spec, sigma);
    EXPECT_NEAR(m.effective_sigma, sigma, 1e-6 * sigma);
    EXPECT_LT(m.max_error, 1e-9);
    EXPECT_LT(m.l1_error, 1e-9);
    EXPECT_LT(std::abs(m.anisotropy), 1e-6) << sigma;  // the contour fit is exact for a Gaussian
  }
}

TEST(ImpulseResponse, DetectsAWrongSigmaAndASquareKernel) {
  BlurSpec spec;
  spec.algorithm = Algorithm::box;
  set_parameter(spec, "box_passes", static_cast<std::int64_t>(1));  // a single box: square contours
  const auto m = measure_impulse(spec, 6.0);
  EXPECT_GT(m.max_error, 0.1);
  EXPECT_GT(m.anisotropy, 0.2);  // the diagonal of a square reaches sqrt(2) further
}

TEST(ImpulseResponse, ContourRadiusIsExactForGaussiansAndCloseForCones) {
  const int n = 41, c = 20;
  std::vector<double> gauss(n * n), cone(n * n);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const double r = std::hypot(x - c, y - c);
      gauss[y * n + x] = std::exp(-r * r / (2 * 2.5 * 2.5));
      cone[y * n + x] = std::max(0.0, 10.0 - r);
    }
  const double r_at = 2.5 * std::sqrt(2 * std::log(1 / 0.01));  // where exp(-r^2/(2 s^2)) = 0.01
  EXPECT_NEAR(contour_radius(gauss, n, n, c, c, 1, 0, 0.01), r_at, 1e-9);
  EXPECT_NEAR(contour_radius(gauss, n, n, c, c, -1, 1, 0.01), r_at, 1e-9);
  EXPECT_NEAR(contour_radius(cone, n, n, c, c, 0, -1, 5.0), 5.0, 0.05);
  EXPECT_NEAR(contour_radius(cone, n, n, c, c, 1, 1, 5.0), 5.0, 0.05);
}

}  // namespace
}  // namespace fastblur::analysis
