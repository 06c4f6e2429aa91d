#pragma once
// SciPy's symmetric correlation of 8-bit values into 8-bit values, its bits without its double
// arithmetic. SciPy computes x0 w0 + sum_k (x[-k] + x[k]) w_k in double (outermost pair first) and
// truncates. With e_k = x[-k] + x[k] - 2 x0 (exact integers) that is x0 + r, r = sum_k e_k w_k, up
// to the double's rounding. So each output is one of:
//  - every e_k 0 (flat areas, ramps): SciPy's value depends on x0 alone - a table of 256 results;
//  - r summed in float32 lanes with a bound on its error: floor(r), where r is not within the bound
//    of an integer;
//  - else SciPy's double sum, value by value (rare: r within about 1e-6 of an integer).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fastblur::cpu {

/// One axis's weights prepared for the certified sums: SciPy's symmetric weights (size1 == size2,
/// every weight positive - a Gaussian's: kernel::certified_u8_possible).
struct CertifiedU8Axis {
  int radius = 0;
  const double* centre = nullptr;   // SciPy's weights, centre[-radius .. radius]
  std::vector<float> w32;           // w32[k] = centre[-k] rounded to float32, k = 0 .. radius
  std::array<std::int32_t, 256> flat{};  // SciPy's result where every pair sums to 2 x0: x0 or x0 - 1
  std::array<std::uint32_t, 16> flat_below{};  // bit x0 set where it is x0 - 1 (words 8 .. 15 zero)
  bool any_below = false;                      // any bit of flat_below set
  float per_weight = 0.0f;          // the error bound: per_weight * sum_k |e_k| w32[k] ...
  float absolute = 0.0f;            // ... + absolute
};

/// The prepared axis of SciPy's weights `w` (kernel::certified_u8_possible(w)); `centre` points into `w`.
CertifiedU8Axis certified_u8_axis(const std::vector<double>& w);

// The taps are 8-bit values held as floats, widened once (widen_u8) - not at every tap.

/// SciPy's uint8 result of output i < count, as a float (for the next axis's line): taps at
/// rows[j] + offset + i, j = -radius .. radius (`rows` points at the centre tap's row).
void certified_u8_rows(const float* const* rows, std::size_t offset, float* out, std::size_t count,
                       const CertifiedU8Axis& axis);

/// SciPy's uint8 result of output i < count: taps at centre + i + j * step, j = -radius .. radius (a
/// line of interleaved channels: step is their count).
void certified_u8_line(const float* centre, std::ptrdiff_t step, std::uint8_t* out, std::size_t count,
                       const CertifiedU8Axis& axis);

/// n 8-bit values as floats.
void widen_u8(const std::uint8_t* in, float* out, std::size_t n);

/// SciPy's own arithmetic for one output whose taps are x[j], j = -radius .. radius (x points at the
/// centre tap): what the certified sums give way to, and the tests' model.
std::uint8_t scipy_u8_value(const std::int32_t* x, const CertifiedU8Axis& axis);

}  // namespace fastblur::cpu
