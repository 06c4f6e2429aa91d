#pragma once
// SciPy's symmetric correlation of 8- and 16-bit integers into the same type, its bits without its
// double arithmetic. SciPy computes x0 w0 + sum_k (x[-k] + x[k]) w_k in double (outermost pair first)
// and converts to the type by C's cast (truncation toward zero). With e_k = x[-k] + x[k] - 2 x0
// (exact integers) that is x0 + r, r = sum_k e_k w_k, up to the double's rounding. So each output is
// one of:
//  - every e_k 0 (flat areas, ramps): SciPy's value depends on x0 alone - a table of the type's levels;
//  - r summed in float32 lanes with a bound on its error: x0 + floor(r) (x0 + ceil(r) below zero),
//    where r is not within the bound of an integer (nor of -x0); for unsigned 8-bit types first
//    with one bound from the kernel alone (two operations a tap pair), then with each output's own;
//  - else SciPy's double sum, value by value (rare: r within about 1e-6 of an integer for 8-bit
//    data, within a few 1e-5 where 16-bit neighbours differ by thousands).
// Every value of these types and their pair sums are exact in float32 (|e_k| < 2^18).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "fastblur/view.hpp"

namespace fastblur::cpu {

/// One axis's weights prepared for the certified sums of one type: SciPy's symmetric weights
/// (size1 == size2, every weight positive - a Gaussian's: kernel::certified_int_possible).
struct CertifiedIntAxis {
  int radius = 0;
  const double* centre = nullptr;     // SciPy's weights, centre[-radius .. radius]
  std::vector<float> w32;             // w32[k] = centre[-k] rounded to float32, k = 0 .. radius
  ElementType type = ElementType::u8; // kernel::certified_int_types
  std::int32_t lowest = 0;            // the type's lowest value: level x0 is bit x0 - lowest below
  // Bit (x0 - lowest) set where SciPy's result of a flat area of x0 is one toward zero (x0 - 1 above
  // zero, x0 + 1 below), the sum of its weights being off 1; shared between axes and calls
  // (certified_int_axis keeps the last few).
  std::shared_ptr<const std::vector<std::uint32_t>> flat_toward_zero;
  bool any_toward_zero = false;       // any bit of it set
  float per_weight = 0.0f;            // the error bound: per_weight * sum_k |e_k| w32[k] ...
  float absolute = 0.0f;              // ... + absolute
  // A first tier for unsigned 8-bit types: r = sum_k (x[-k] + x[k]) w32[k] - x0 quick_two_s with
  // one bound for every output (quick_bound; 0: no first tier). What it leaves undecided (flat
  // areas always) the sums above remake.
  float quick_two_s = 0.0f;
  float quick_bound = 0.0f;
};

/// Channels of a line whose outputs' taps are all one level (an opaque alpha channel): their
/// outputs are that level's flat result, which the first tier takes instead of leaving every vector
/// with such a lane to the per-output bound. Output i is channel i % channels; used where channels
/// divides the vector's lanes (1, 2, 4), else ignored (the same bits, the other way).
struct KnownChannels {
  static constexpr int kMaxChannels = 4;
  int channels = 0;        // 0: nothing known
  std::uint32_t known = 0;  // bit c: channel c's outputs are result[c]
  float result[kMaxChannels] = {};
};

/// The prepared axis of SciPy's weights `w` (kernel::certified_int_possible(w)) for `type`
/// (kernel::certified_int_types); `centre` points into `w`.
CertifiedIntAxis certified_int_axis(const std::vector<double>& w, ElementType type);

// The taps are integers held as floats, widened once (widen_ints) - not at every tap.

/// SciPy's result of output i < count, as a float (for the next axis's line): taps at
/// rows[j] + offset + i, j = -radius .. radius (`rows` points at the centre tap's row). Returns how
/// many outputs the bound left to SciPy's double sums (the tail past the last vector, always
/// summed so, not counted).
std::size_t certified_int_rows(const float* const* rows, std::size_t offset, float* out, std::size_t count,
                               const CertifiedIntAxis& axis, const KnownChannels& known = {});

/// certified_int_rows for two successive output rows: `rows` points at A's centre tap row, B's taps
/// are rows[j + 1] (j = -radius .. radius + 1 valid), each tap row loaded once for both. Unsigned
/// 8-bit axes only (quick_bound set). Returns as certified_int_rows, both rows together.
std::size_t certified_int_rows_pair(const float* const* rows, float* out_a, float* out_b, std::size_t count,
                                    const CertifiedIntAxis& axis, const KnownChannels& known_a = {},
                                    const KnownChannels& known_b = {});

/// SciPy's result of output i < count in the axis's type (8-bit types into `out8`, 16-bit into
/// `out16`, signed ones as their two's complement bits): taps at centre + i + j * step, j = -radius ..
/// radius (a line of interleaved channels: step is their count). Returns how many outputs the bound
/// left to SciPy's double sums (as certified_int_rows).
std::size_t certified_int_line(const float* centre, std::ptrdiff_t step, std::uint8_t* out8, std::size_t count,
                               const CertifiedIntAxis& axis, const KnownChannels& known = {});
std::size_t certified_int_line(const float* centre, std::ptrdiff_t step, std::uint16_t* out16, std::size_t count,
                               const CertifiedIntAxis& axis, const KnownChannels& known = {});

/// SciPy's result where every tap is `level` (a value of the axis's type): the level, or one toward zero.
float certified_flat_result(const CertifiedIntAxis& axis, float level);

/// Bit c set where channel c (< KnownChannels::kMaxChannels, of `channels`) of the n values of a
/// row of interleaved channels is one level, that level in levels[c]; 0 for more channels.
std::uint32_t constant_channels(const float* row, std::size_t n, int channels, float* levels);

/// n values of an 8- or 16-bit integer type (kernel::certified_int_types) as floats.
void widen_ints(ElementType type, const void* in, float* out, std::size_t n);

/// SciPy's own arithmetic for one output whose taps are x[j], j = -radius .. radius (x points at the
/// centre tap), truncated as C's cast to int32 (the type's value: every such sum lies in its range):
/// what the certified sums give way to, and the tests' model.
std::int32_t scipy_int_value(const std::int32_t* x, const CertifiedIntAxis& axis);

}  // namespace fastblur::cpu
