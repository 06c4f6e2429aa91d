// Binomial kernels (seed 003, appendix B): repeated [1 1]/2, variance n/4.
#include <cmath>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::kernel {

std::vector<double> binomial_weights(int order) {
  if (order < 0 || order > 1000000)
    throw InvalidArgument("binomial_weights: order must be in 0..1000000, got " + std::to_string(order));
  // C(n,k)/2^n through lgamma, so large orders neither overflow nor lose the tails to underflow
  // sooner than they must.
  std::vector<double> w(static_cast<std::size_t>(order) + 1);
  const double n = order;
  const double log_norm = std::lgamma(n + 1.0) - n * std::log(2.0);
  double sum = 0.0;
  for (int k = 0; k <= order; ++k) {
    const double v = std::exp(log_norm - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0));
    w[static_cast<std::size_t>(k)] = v;
    sum += v;
  }
  for (double& v : w) v /= sum;  // removes the last few ulps of lgamma error
  return w;
}

int binomial_order_for_sigma(double sigma) {
  if (!(sigma >= 0.0) || !std::isfinite(sigma) || sigma > 500.0)
    throw InvalidArgument("binomial_order_for_sigma: sigma must be in [0, 500], got " + std::to_string(sigma));
  return static_cast<int>(std::lround(4.0 * sigma * sigma));
}

}  // namespace fastblur::kernel
