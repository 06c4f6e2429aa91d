// CpuDriver::scipy_order with Schedule::fused_z: a volume filtered z, then y, then x - SciPy's order
// - in one pass over its planes. Each worker makes a band of output planes: source planes enter a
// ring as doubles (SciPy's line buffer; float32, 8- and 16-bit planes are read where they lie, widened
// as loaded); a group of output planes sums the ring's planes in SciPy's
// order (a strip at a time, the group sharing its tap planes' loads), each result goes through the
// output type (SciPy stores z's result and y reads it back) and is filtered in y and x by the fused
// rows driver into the destination plane while it is in cache. The volume is read once and written
// once; the pass per axis wrote z's result to memory and read it back for the planes.
//
// In place, a band reads some planes after they are written (its neighbours' within z's reach, its
// own that the border folds back onto): those are stashed first, as the rows driver stashes rows.
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>
#include <vector>

#include "hwy/aligned_allocator.h"

#include "core/element.hpp"
#include "cpu/execute.hpp"
#include "cpu/ordered_correlate.hpp"
#include "cpu/scipy_ring.hpp"

namespace fastblur::cpu {
namespace {

constexpr std::int64_t kGroup = 4;      // output planes whose z sums share a sweep of the ring
constexpr std::int64_t kStrip = 1024;   // values of a plane a sweep takes at a time (taps + 3 strips in L2)

// Plane z of a view as doubles, rows packed.
void read_plane(const View& v, std::int64_t z, double* to) {
  const View p = plane_of(v, z);
  const std::int64_t row = v.width() * v.channels;
  for (std::int64_t y = 0; y < v.height(); ++y) read_row(p, y, to + y * row);
}

// A worker's ring and planes, kept from call to call (fresh pages fault every call).
struct PlaneBuffers {
  hwy::AlignedFreeUniquePtr<double[]> ring, planes;
  std::size_t ring_size = 0, planes_size = 0;
  static double* get(hwy::AlignedFreeUniquePtr<double[]>& b, std::size_t& size, std::size_t want) {
    if (size < want) b = hwy::AllocateAligned<double>(want), size = want;
    return b.get();
  }
};
thread_local PlaneBuffers t_planes;

}  // namespace

void scipy_order_planes_blur(const Plan& plan, const View& src, const View& dst, int workers) {
  const std::int64_t W = src.width(), H = src.height(), D = src.depth(), C = src.channels;
  const std::int64_t values = W * H * C;  // a plane's
  const ScipyAxis z = scipy_axis(plan, 2, D);
  const int taps = z.taps();
  const double cval = plan.spec.cval;
  const Bands bands(D, workers);
  const int threads = bands.workers();
  // In place (the front door copies a source that only partly overlaps): planes read after they are
  // written, stashed before any worker writes.
  const bool in_place = src.data == dst.data;
  const Stash stashing = in_place ? lines_read_after_written(bands, z, D) : Stash{};
  hwy::AlignedFreeUniquePtr<double[]> stash =
      hwy::AllocateAligned<double>(std::max<std::size_t>(1, stashing.lines.size() * static_cast<std::size_t>(values)));
  if (!stashing.lines.empty()) {  // no team for none (a region wakes the sleeping workers)
#pragma omp parallel for schedule(static) num_threads(threads)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(stashing.lines.size()); ++i)
      read_plane(src, stashing.lines[static_cast<std::size_t>(i)], stash.get() + i * values);
  }
  const std::int64_t group = std::min<std::int64_t>(kGroup, D);
  const int slots = taps + static_cast<int>(group) - 1;
  const std::size_t pitch = ring_pitch(values);
  const ElementType between = between_axes(plan, dst.type);  // what z's results go through
  const StoredAs stored = scipy_stored_as(plan, 2, src.type, between);
  // Schedule::z_source_planes: z sums the source's planes where they lie, widened as they are loaded -
  // where they are packed float32 planes apart from the output and z reads no cval plane (a plan made
  // for another call falls back to the ring).
  const bool source_planes = plan.schedule.z_source_planes && core::widens_to_double_as_loaded(src.type) &&
                             planes_packed(src) && !in_place && maps_to_samples(z);
  const ElementType tap_type = source_planes ? src.type : ElementType::f64;  // the source's, or the ring's
  const auto source_plane = [&](std::int64_t e) -> const void* {
    return static_cast<const std::byte*>(src.data) + z.map[static_cast<std::size_t>(e)] * src.stride[2];
  };
  std::exception_ptr failure;
#pragma omp parallel for schedule(static, 1) num_threads(threads)
  for (int b = 0; b < threads; ++b) {
    try {
      PlaneBuffers& buf = t_planes;
      // No ring where the source's planes are read where they lie (kept per thread: it would hold memory).
      double* ring = source_planes ? nullptr
                                   : PlaneBuffers::get(buf.ring, buf.ring_size, static_cast<std::size_t>(slots) * pitch);
      double* planes = PlaneBuffers::get(buf.planes, buf.planes_size, static_cast<std::size_t>(group * values));
      std::vector<const void*> rows(static_cast<std::size_t>(slots));  // tap planes, of tap_type
      std::vector<double*> strip_out(static_cast<std::size_t>(group));
      const std::int64_t z0 = bands.start[static_cast<std::size_t>(b)], z1 = bands.start[static_cast<std::size_t>(b) + 1];
      const auto slot = [&](std::int64_t e) { return ring + static_cast<std::size_t>(e % slots) * pitch; };
      const auto enter = [&](std::int64_t e) {  // extended plane e into its ring slot
        if (source_planes) return;  // read where it lies (source_plane)
        double* to = slot(e);
        const std::int64_t r = z.map[static_cast<std::size_t>(e)];
        if (r < 0) std::fill(to, to + values, cval);
        else if (in_place && stashing.slot[static_cast<std::size_t>(r)] >= 0)
          std::memcpy(to, stash.get() + stashing.slot[static_cast<std::size_t>(r)] * values,
                      static_cast<std::size_t>(values) * sizeof(double));
        else read_plane(src, r, to);
      };
      for (std::int64_t e = z0; e + 1 < z0 + taps && z0 < z1; ++e) enter(e);
      for (std::int64_t g0 = z0; g0 < z1; g0 += group) {
        const std::int64_t g1 = std::min(z1, g0 + group);
        const int outputs = static_cast<int>(g1 - g0);
        for (std::int64_t out_z = g0; out_z < g1; ++out_z) enter(out_z + taps - 1);
        for (int t = 0; t < taps + outputs - 1; ++t)
          rows[static_cast<std::size_t>(t)] = source_planes ? source_plane(g0 + t) : slot(g0 + t);
        for (std::int64_t s0 = 0; s0 < values; s0 += kStrip) {
          const std::size_t n = static_cast<std::size_t>(std::min<std::int64_t>(kStrip, values - s0));
          for (int m = 0; m < outputs; ++m) strip_out[static_cast<std::size_t>(m)] = planes + m * values + s0;
          ordered_correlate_row_window(tap_type, rows.data() + z.size1, static_cast<std::size_t>(s0), strip_out.data(),
                                       outputs, n, z.centre, z.size1, z.size2, z.symmetry, stored);
        }
        for (int m = 0; m < outputs; ++m) {
          double* plane = planes + m * values;
          // SciPy stores z's result, y reads it back (float32's and truncated ones as the sums were stored).
          through_unless_stored(stored, between, plane, static_cast<std::size_t>(values));
          scipy_order_plane_rows(plan, plane, plane_of(dst, g0 + m));
        }
      }
    } catch (...) {
#pragma omp critical(fastblur_scipy_planes_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace fastblur::cpu
