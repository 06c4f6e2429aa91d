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
  std::vector<double> beta;  ///< beta[0] = 1 / (2R + 1)
  int order() const { return static_cast<int>(beta.size()) - 1; }
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

/// Max |h - g| / max g, with g the sampled Gaussian normalised over +-8 sigma (DESIGN.md).
double sliding_dct_max_error(const SlidingDctKernel& k, double sigma);

}  // namespace fastblur::kernel
