#pragma once
/// @file
/// The sliding-DCT Gaussian (Sugimoto and Kamata 2013, "Fast Gaussian filter with second-order
/// shift property of DCT-5"): beyond the seeds, a constant-time Gaussian more accurate than
/// Deriche's 4th-order recursive filter.
///
/// The Gaussian on a window of 2R+1 samples is written as a short cosine series,
///   h(n) = sum_{k=0..K} beta_k cos(2 pi k n / (2R+1)),  |n| <= R  (0 outside).
/// Convolving a line with one term, Z_k(x) = sum_{|n|<=R} f(x+n) cos(w_k n), obeys a second-order
/// recurrence in x (the shift property), so each term costs O(1) per sample whatever R:
///   Z_k(x+1) = 2 cos(w_k) Z_k(x) - Z_k(x-1) + cos(w_k R) (f(x+R+1) + f(x-R-1) - f(x+R) - f(x-R))
/// (with w_k = 2 pi k / (2R+1), cos(w_k (R+1)) = cos(w_k R), so one coefficient serves both ends).
/// The cosines of the window are orthogonal (a DFT of length 2R+1), so the least-squares series of
/// the sampled Gaussian on the window is its first K+1 DFT coefficients, and beta_0 = 1/(2R+1)
/// makes the gain exactly 1. R is chosen per sigma to balance the tail beyond the window against
/// the dropped frequencies (R near sqrt(pi (K+1)) sigma).
///
/// Accuracy: bench/RESULTS.md's accuracy table (max error about 7e-5 at the default order 5, asserted
/// by tests/kernel/sliding_dct_test.cpp). Where R <= K (small sigma) the series reproduces the
/// windowed Gaussian exactly.
#include <vector>

namespace fastblur::kernel {

/// Orders (cosine terms after the constant one) the sliding DCT accepts, and the default.
inline constexpr int kSlidingDctMinOrder = 2;
inline constexpr int kSlidingDctMaxOrder = 8;
inline constexpr int kSlidingDctDefaultOrder = 5;

/// One sliding-DCT Gaussian: window radius R and the series coefficients beta_0..beta_K.
struct SlidingDctKernel {
  int radius = 0;
  std::vector<double> beta;  ///< beta[0] = 1 / (2R + 1) for the classic series
  /// The cosines' period P in samples (w_k = 2 pi k / P): 0 for the window's own 2R+1 (the classic
  /// series); longer for fir's kernel (sliding_dct_kernel_matching_fir), whose window then ends
  /// where the series is not periodic, and the recurrence takes both ends' cosines:
  ///   Z_k(x+1) = 2 cos(w_k) Z_k(x) - Z_k(x-1) + cos(w_k R) (f(x+R+1) + f(x-R-1)) - cos(w_k (R+1)) (f(x+R) + f(x-R)).
  double period = 0.0;
  int order() const { return static_cast<int>(beta.size()) - 1; }
  double cosine_period() const { return period > 0.0 ? period : 2.0 * radius + 1.0; }
};

/// The series of `order` terms for `sigma` (> 0, finite, <= 1e6) with the window radius that
/// minimises the max error against the Gaussian. order 0 picks the default. Throws
/// InvalidArgument for a bad sigma or order.
SlidingDctKernel sliding_dct_kernel(double sigma, int order = 0);

/// The series for an explicit window radius (>= 1). The order is capped at the radius (where
/// the series is then the whole DFT of the window).
SlidingDctKernel sliding_dct_kernel_for_radius(double sigma, int order, int radius);

/// The equivalent FIR kernel: h(-R..R), 2R+1 values.
std::vector<double> sliding_dct_weights(const SlidingDctKernel& k);

/// Max |h - g| / max g, with g the sampled Gaussian normalised over +-8 sigma (docs/DESIGN.md).
double sliding_dct_max_error(const SlidingDctKernel& k, double sigma);

/// fir's own kernel - the sampled Gaussian truncated at `radius` and normalised on it
/// (gaussian_weights) - as a cosine series on that window: the exact blur at a cost independent of
/// sigma. The cosines' period is longer than the window (about 10 sigma), where the Gaussian's
/// periodic sum is smooth: its Fourier coefficients, sigma sqrt(2 pi) exp(-(2 pi k sigma / P)^2 / 2)
/// / P scaled by fir's normalisation, fall fast, and the period is searched for the least error
/// against fir's weights. Measured max error against them (relative to the peak, truncate 4):
/// about 4e-6 at order 6, 6e-7 at 7, 6e-8 at 8, whatever sigma.
SlidingDctKernel sliding_dct_kernel_matching_fir(double sigma, int order, int radius);

/// Max |h - w| / max w between the series' weights h and given weights w on the same window.
double sliding_dct_error_against(const SlidingDctKernel& k, const std::vector<double>& weights);

}  // namespace fastblur::kernel
