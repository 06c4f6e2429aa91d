#pragma once
// Runs 1D filters along the axes of a 2D/3D image, one line of one channel at a time, in double.
// Each line is extended on both sides by the border mode (so every algorithm honours every
// border the same way fir does), filtered, and written back. The driver of the float64 data and of
// the filters without SIMD lanes (fft, downsample, Young-van Vliet, derivatives); the twin in double
// of the lane filters.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "fastblur/plan.hpp"

namespace fastblur::cpu {

/// Scratch a line filter may use freely; one per thread, kept across lines.
struct LineScratch {
  std::vector<double> a, b, c;
};

/// A filter of lines of length n: `in` holds n + 2*pad samples (in[pad] is the line's first),
/// extended by the border mode; it writes n samples to `out`.
struct LineFilter {
  std::int64_t pad = 0;
  /// Whether the filter leaves a constant line unchanged (weights summing to 1); lines of one
  /// sample are then skipped. Derivative filters say false.
  bool unit_gain = true;
  std::function<void(const double* in, double* out, std::int64_t n, LineScratch& scratch)> apply;
};

/// Applies filters[a] along each axis a that has one (x, then y, then z), with the plan's borders,
/// cval, threads and intermediate type (the whole image is held packed in it between axes). Lines of
/// one sample are skipped for every border but constant where the filter has unit gain (it cannot
/// change them). src and dst may alias in any way.
void run_line_filters(const Plan& plan, const View& src, const View& dst,
                      const std::array<std::optional<LineFilter>, 3>& filters);

}  // namespace fastblur::cpu
