#pragma once
// Rows of whole pixels into lanes and back with SIMD block transposes: the x pass of the lane
// driver (lane_lines.cpp) interleaves V / C rows position by position (sample j of row r at
// lanes[j V + r C + c]). Highway, dispatched at run time; a target or channel count without a
// transpose here returns false and the caller's element loops run.
#include <cstddef>
#include <cstdint>

namespace fastblur::cpu {

/// lanes[j V + r C + c] = A[base[r C] + j C + c] for the V / C rows r and the n positions j.
bool gather_rows_simd(float* lanes, const float* A, const std::size_t* base, std::size_t V, std::size_t C,
                      std::int64_t n);
/// The inverse: A[base[r C] + j C + c] = lanes[j V + r C + c].
bool scatter_rows_simd(const float* lanes, float* A, const std::size_t* base, std::size_t V, std::size_t C,
                       std::int64_t n);

}  // namespace fastblur::cpu
