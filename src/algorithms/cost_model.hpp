#pragma once
// The CPU cost model's shared terms, in units of one fir tap pair per pixel, channel and axis (about
// 0.034 ns with 2 threads on the Zen 5 VM of bench/RESULTS.md), fitted to the per-algorithm rows of
// bench/cpu_bench.cpp (algo/*/1920x1080/s5, s20, s50; the fit and its residuals are in RESULTS.md).
// Refitted for fir on the AVX-512 machine of issue 28: a float tap pair is 1.5 units (fir.cpp).
// Each algorithm's own terms live in its descriptor.
#include "fastblur/view.hpp"

namespace fastblur::algo::cost {

/// The scalar line driver: one line at a time in double (strided gather, border extension, scatter).
inline constexpr double kLineDriver = 100.0;
/// The lane driver: a transfer of lane_width() lines in and out of the lane buffer.
inline constexpr double kLaneDriver = 15.8;
/// The lane driver along x on one channel (each line a row, transposed into lanes 16 rows at a time)
/// costs this many times the modelled axis, whose costs were fitted to RGBA's whole blurs: measured
/// 2026-11-28 at sigma 8, 2 threads, the same 8.3M floats as grey 3840x2160 and RGBA 1920x1080, x
/// alone: sliding-dct 14.99 / 7.15 ms, iir 11.93 / 4.89 (y alone 9.61 / 9.06 and 7.38 / 6.94).
/// bench/RESULTS.md, issue 43, "the lane driver's x on one channel".
inline constexpr double kLanesAlongGreyRows = 2.2;

/// The lane driver's transfer of pixels of several channels of float64 or 32-bit integers (their
/// conversions to and from float lanes), instead of kLaneDriver: measured 2026-11-29, 2 threads,
/// 1000x1700x3 sigma 4 tolerance 1e-3, iir in lanes float32 8.1-10.5 ms, float64 12.5-19.8, int32
/// 16.0-20.2, against SciPy's order (fir) 10.2: about 13-17 units more an axis. One channel does not
/// pay it (float64 grey 1000x1700: iir 4.4 ms against fir's 3.3, as the model had it), nor do 8- and
/// 16-bit lines (bench/RESULTS.md, issue 43, "the lane driver's wide elements").
inline constexpr double kLaneDriverWide = 29.0;

/// Whether the lane driver carries a type's lines at kLaneDriverWide (8-byte types and 32-bit integers).
inline bool wide_lane_lines(ElementType type) {
  return element_size(type) == 8 || type == ElementType::i32 || type == ElementType::u32;
}

/// A lane algorithm's CPU axis cost: the driver's transfer (kLaneDriverWide for pixels of several
/// wide values) and the algorithm's per-sample work (already scaled by its padding), times
/// kLanesAlongGreyRows along x of a one-channel image.
inline double lane_axis(int channels, int axis, double per_sample, ElementType source, ElementType destination) {
  const bool wide = channels > 1 && (wide_lane_lines(source) || wide_lane_lines(destination));
  const double transfer = wide ? kLaneDriverWide : kLaneDriver;
  return (transfer + per_sample) * (axis == 0 && channels == 1 ? kLanesAlongGreyRows : 1.0);
}

}  // namespace fastblur::algo::cost
