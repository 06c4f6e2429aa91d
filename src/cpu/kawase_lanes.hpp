#pragma once
// Kawase passes across lanes: lane_width() lines at once, interleaved as in iir_simd.hpp (sample
// i of lane l at buf[i * lane_width() + l]). A pass is a 4-tap stencil with no running state, so
// float is exact enough (a few roundings per pass, none accumulating along the line).
#include <cstddef>
#include <cstdint>

namespace fastblur::cpu {

/// kawase.cpp's passes across lanes: per offset d, with a = floor(d) and t = d - a,
///   y[i] = (1-t)/2 (x[i-a] + x[i+a]) + t/2 (x[i-a-1] + x[i+a+1]),
/// each pass shrinking the valid range by a + 1 per side. `in` holds n + 2 pad positions
/// (border-extended, pad at least the sum of floor(d) + 1), `out` receives n. `scratch` holds
/// (n + 2 pad) * lane_width() floats: the first pass writes there and the middle ones run in place
/// in it (unused for one pass). Float throughout: two adds and two multiplies per pass. The loop is
/// bound by loads and stores: buffers at 64-byte boundaries run it twice as fast on AVX-512 as
/// std::vector's 16-byte alignment (every vector access otherwise splits across cache lines).
void kawase_lanes(const float* in, float* out, float* scratch, std::int64_t n, std::int64_t pad,
                  const double* offsets, std::size_t count);

}  // namespace fastblur::cpu
