#pragma once
// The CPU cost model's shared terms, in units of one fir tap pair per pixel, channel and axis (about
// 0.034 ns with 2 threads on the Zen 5 VM of bench/RESULTS.md), fitted to the per-algorithm rows of
// bench/cpu_bench.cpp (algo/*/1920x1080/s5, s20, s50; the fit and its residuals are in RESULTS.md).
// Refitted for fir on the AVX-512 machine of issue 28: a float tap pair is 1.5 units (fir.cpp).
// Each algorithm's own terms live in its descriptor.
namespace fastblur::algo::cost {

/// The scalar line driver: one line at a time in double (strided gather, border extension, scatter).
inline constexpr double kLineDriver = 100.0;
/// The lane driver: a transfer of lane_width() lines in and out of the lane buffer.
inline constexpr double kLaneDriver = 15.8;

}  // namespace fastblur::algo::cost
