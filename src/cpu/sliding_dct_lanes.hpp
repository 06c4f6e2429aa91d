#pragma once
// The sliding-DCT Gaussian (kernel_sliding_dct.hpp) across lanes: lane_width() lines at once,
// interleaved as in iir_simd.hpp (sample i of lane l at buf[i * lane_width() + l]). The
// recurrences are marginally stable (roots on the unit circle): their rounding errors never decay,
// so the state and arithmetic are double vectors (float state is off by 2e-3 to 8e-3 relative on
// lines near 1000 within one restart interval) and the state is recomputed from the window every
// restart_interval samples, as sliding_dct.cpp does.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fastblur/kernel_sliding_dct.hpp"

namespace fastblur::cpu {

/// What the filter precomputes once per kernel, with w_j = 2 pi j / P (P = 2R+1 for the classic
/// series): per term j, beta_j, 2 cos(w_j), cos(w_j R) (the end-sample coefficient; and cos(w_j (R+1))
/// where P is longer) and the window's cosines for restarts.
struct SlidingDctLaneCoefficients {
  int radius = 0;
  int terms = 0;                       ///< order + 1
  std::int64_t restart_interval = 0;   ///< max(4096, 8 R), as sliding_dct.cpp
  std::vector<double> beta, two_cos, cos_radius;
  std::vector<double> cos_radius1;     ///< cos(w_j (R+1)): the inner ends' coefficient where it differs
  bool split_ends = false;             ///< the period is not the window's (SlidingDctKernel::period)
  std::vector<double> window;          ///< cos(w_j m) at [(m + R) * terms + j], |m| <= R
};
/// Throws InvalidArgument for a radius below 1 or more than kSlidingDctMaxOrder + 1 terms.
SlidingDctLaneCoefficients sliding_dct_lane_coefficients(const kernel::SlidingDctKernel& k);

/// sliding_dct.cpp's filter across lanes: `in` holds n + 2 (R + 1) positions (border-extended),
/// `out` receives the n outputs sum_j beta_j Z_j.
void sliding_dct_lanes(const float* in, float* out, std::int64_t n, const SlidingDctLaneCoefficients& c);

}  // namespace fastblur::cpu
