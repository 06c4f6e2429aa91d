#pragma once
// The CPU backend's side of the registry: an executor per algorithm id (algorithm_list.def), each
// running a resolved plan (src/algorithms/ resolves, the CPU only executes).
#include <functional>
#include <span>

#include "fastblur/derivative_step.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::cpu {

/// Runs a resolved CPU plan on views of its shape. src and dst may be the same view (in place) or
/// apart; overlapping views that are not the same are resolved by the front door before this.
using Executor = void (*)(const Plan& plan, const View& src, const View& dst);

/// The CPU's executor of `algorithm`, or nullptr where the CPU does not run it.
Executor executor(Algorithm algorithm) noexcept;

/// Runs a CPU plan: a converted copy where no axis has a sigma, else the algorithm's executor.
void execute(const Plan& plan, const View& src, const View& dst);

// The executors (one file each), named by algorithm_list.def: CPU_blur for each line's CPU entry;
// none_blur stands for "the CPU does not run it" (executor() returns nullptr for it).
#define FASTBLUR_ALGORITHM(id, cpu, vulkan) void cpu##_blur(const Plan& plan, const View& src, const View& dst);
#include "fastblur/algorithm_list.def"
#undef FASTBLUR_ALGORITHM
// fir's drivers for any kernel in double and for SciPy's order (fir_blur dispatches to them).
void fir_lines_blur(const Plan& plan, const View& src, const View& dst);
void scipy_order_blur(const Plan& plan, const View& src, const View& dst);
// What is done to each output row of a fused scipy-order image once it is in dst, by the thread that
// wrote it, while it is in cache (Schedule::pixels_image: x's pass across the row's pixels).
using RowFinish = std::function<void(std::int64_t y)>;
// scipy_order with Schedule::fused_axes: a 2D image's y and x passes through a ring of rows, made by
// `workers` threads (bands of rows); `finish`, where given, on each output row.
void scipy_order_rows_blur(const Plan& plan, const View& src, const View& dst, int workers, const RowFinish& finish = {});
// scipy_order with Schedule::scipy_int_certified: the same for 8- or 16-bit integer rows into their
// type, SciPy's bits from float32 sums with an error bound (scipy_order_rows_int.cpp); false where
// these views are not what the plan was made for (in place, a cval not of the type) or a sample of
// rows leaves too many outputs to SciPy's double sums (kernel::certified_int_share_suits): then run
// the other.
bool scipy_order_rows_int_blur(const Plan& plan, const View& src, const View& dst, int workers,
                               const RowFinish& finish = {});
// The same for one plane given as doubles already through the output type (the planes driver's z
// result, `dst`'s extents), on the calling thread.
void scipy_order_plane_rows(const Plan& plan, const double* plane, const View& dst);
// scipy_order with Schedule::fused_z: a volume's z pass through a ring of planes, each output
// plane then filtered in y and x while in cache (scipy_order_planes.cpp), by `workers` threads.
void scipy_order_planes_blur(const Plan& plan, const View& src, const View& dst, int workers);
// The same for several terms read from one ring of source rows (derivative_sum's fused case): each
// plan's y and x passes, the first term written to dst's row and the others folded into it as
// derivative_sum_step folds them. The plans share y's kernel length and border; dst's rows are
// packed and apart from src.
void scipy_order_rows_terms(std::span<const Plan* const> plans, DerivativeSum kind, const View& src, const View& dst,
                            int workers, const RowFinish& finish = {});
// A 2D image's rows given and taken by the caller instead of views: `read(y, row)` fills row y of
// the image (W x C values, packed), `write(y, row)` takes output row y; called from several threads
// at once, each row read about once and written once (the normalized convolution packs and divides
// rows there, so its weighted image never goes to memory). The drivers that take them work in float.
// `write_lerp(y, a, b, wa, wb)`, where given, takes output row y as the lerp wa a + wb b of two rows
// (weighted_rows' arithmetic) instead: downsample's chain ends in that lerp, and the normalized
// convolution divides as it computes it; false where it does not (then the lerp goes to write).
// `sum_rows(ys, w, count, out)`, where given, writes the weighted sum of rows ys[0 .. count) as read
// would give them (weighted_rows' arithmetic) without reading them into rows first: the chain's
// tent, which the normalized convolution sums from the source's rows where they lie; false where
// it does not (then read, then weighted_rows).
template <class T>
struct Rows {
  std::int64_t width = 0, height = 0;
  int channels = 1;
  std::function<void(std::int64_t y, T* row)> read;
  std::function<void(std::int64_t y, const T* row)> write;
  std::function<bool(std::int64_t y, const T* a, const T* b, T wa, T wb)> write_lerp;
  std::function<bool(const std::int64_t* ys, const T* w, int count, T* out)> sum_rows;
};
using FloatRows = Rows<float>;
// Whether fir_rows_blur runs `plan` (fir on fused rows, float, 2D: CpuDriver::fused_rows).
bool fir_rows_available(const Plan& plan);
// fir's fused 2D driver over the caller's rows.
void fir_rows_blur(const Plan& plan, const FloatRows& rows);
// downsample's 2D chain driver (CpuDriver::chain; downsample_blur dispatches to it).
void downsample_chain_blur(const Plan& plan, const View& src, const View& dst);
// Whether downsample_chain_rows runs `plan` (downsample's chain, 2D); the chain over the caller's rows.
bool chain_rows_available(const Plan& plan);
void downsample_chain_rows(const Plan& plan, const FloatRows& rows);
// Whether scipy_order_rows_blur runs `plan` over rows (scipy-order fused, 2D: float64 work's
// driver); scipy-order's fused driver over the caller's rows of doubles, the plan's threads.
bool scipy_rows_available(const Plan& plan);
void scipy_order_rows_blur(const Plan& plan, const Rows<double>& rows);

}  // namespace fastblur::cpu
