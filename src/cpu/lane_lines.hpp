#pragma once
// Runs 1D filters along the axes of a 2D/3D float image lane_width() lines at a time, so that the
// recursions of O(1) filters run in SIMD across lines instead of one line at a time. Lines along y
// and z are adjacent columns (copied in as contiguous vectors); lines along x are (row, channel)
// pairs, gathered. Each group of lines is copied into a lane-interleaved buffer extended by the
// border mode, filtered, and written back.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>

#include "fastblur/plan.hpp"

namespace fastblur::cpu {

/// A filter of lane_width() interleaved lines: `in` holds n + 2 pad positions (border-extended),
/// `out` receives n; `scratch` holds n + 2 pad positions the filter may use freely.
struct LaneFilter {
  std::int64_t pad = 0;
  std::function<void(const float* in, float* out, float* scratch, std::int64_t n, std::int64_t pad)> apply;
};

/// Applies filters[a] along each axis a that has one (x, then y, then z), in float, with the plan's
/// borders, cval and threads: src is read once into a float working image, dst written once from
/// it. src and dst may alias in any way. Lines of one sample are skipped unless the border is
/// constant (a unit-gain filter leaves them).
void run_lane_filters(const Plan& plan, const View& src, const View& dst,
                      const std::array<std::optional<LaneFilter>, 3>& filters);

}  // namespace fastblur::cpu
