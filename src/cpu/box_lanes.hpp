#pragma once
// The box algorithm's running sums across lanes: lane_width() lines at once, interleaved as in
// iir_simd.hpp (sample i of lane l at buf[i * lane_width() + l]). The sums are kept in double
// vectors (each half of a float vector promoted): a float running sum drifts over long lines
// (3.7e-6 relative after 16384 samples near 1000), while the outputs between passes can be float
// (each rounds once, nothing accumulates).
#include <cstddef>
#include <cstdint>

#include "fastblur/kernel.hpp"

namespace fastblur::cpu {

/// box.cpp's passes across lanes: `in` holds n + 2 pad positions (border-extended, pad at least
/// the sum over passes of radius + 1), `out` receives the n filtered positions. Each pass is the
/// extended box (sum of 2r+1 samples plus alpha times the two next ones, over 2r+1+2 alpha) and
/// shrinks the valid range by radius + 1 per side. `scratch` holds (n + 2 pad) * lane_width()
/// floats: the first pass writes there and the middle ones run in place in it (unused for one
/// pass). Any pass count, 0 copies.
void box_lanes(const float* in, float* out, float* scratch, std::int64_t n, std::int64_t pad,
               const kernel::BoxPass* passes, std::size_t count);

}  // namespace fastblur::cpu
