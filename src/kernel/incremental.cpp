// Seed 000 (Turkowski, GPU Gems 3 ch. 40): Gaussian samples by forward quotients.
#include <cmath>
#include <numbers>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {

namespace {
void check(double sigma, double delta) {
  if (!(sigma > 0.0) || !std::isfinite(sigma))
    throw InvalidArgument("incremental Gaussian: sigma must be finite and > 0, got " + std::to_string(sigma));
  if (!(delta > 0.0) || !std::isfinite(delta))
    throw InvalidArgument("incremental Gaussian: delta must be finite and > 0, got " + std::to_string(delta));
}
}  // namespace

IncrementalCoefficients incremental_coefficients(double sigma, double delta, bool two_exponentials) {
  check(sigma, delta);
  // g(x+d)/g(x) = exp(-(2 x d + d^2) / (2 s^2)): at x = 0 the first quotient is exp(-d^2/(2 s^2)),
  // and the quotient of successive quotients is the constant exp(-d^2 / s^2).
  const double q = delta * delta / (sigma * sigma);
  IncrementalCoefficients c;
  c.g0 = static_cast<float>(1.0 / (std::sqrt(2.0 * std::numbers::pi) * sigma));
  c.g1 = static_cast<float>(std::exp(-0.5 * q));
  c.g2 = two_exponentials ? static_cast<float>(std::exp(-q)) : c.g1 * c.g1;
  return c;
}

std::vector<float> incremental_gaussian(const IncrementalCoefficients& c, int count) {
  if (count < 0) throw InvalidArgument("incremental Gaussian: count must be >= 0");
  std::vector<float> out(static_cast<std::size_t>(count));
  float g0 = c.g0, g1 = c.g1;
  for (int i = 0; i < count; ++i) {
    out[static_cast<std::size_t>(i)] = g0;
    g0 *= g1;
    g1 *= c.g2;
  }
  return out;
}

}  // namespace fastblur::kernel
