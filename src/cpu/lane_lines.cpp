#include "cpu/lane_lines.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>


#include "core/border.hpp"
#include "core/overlap.hpp"
#include "core/size.hpp"
#include "cpu/iir_simd.hpp"
#include "cpu/lane_rows_simd.hpp"
#include "cpu/line_io.hpp"
#include "cpu/scratch.hpp"
#include "fastblur/error.hpp"

namespace fastblur::cpu {
namespace {

// One worker's lane buffers, each at a 64-byte boundary (unaligned, every wide load of a 64-byte
// vector spans two lines: kawase's passes ran at half speed).
struct LaneScratch {
  float *in = nullptr, *out = nullptr, *work = nullptr;
  std::vector<std::size_t> base;
};
// The memory behind them, kept by the calling thread from one blur to the next (scratch.hpp):
// allocated per call, a 1080p RGBA float blur took about 750 fresh pages a call from Python
// (15-21 ms a call against 9 ms in fastblur_bench).
struct LaneMemory {
  RetainedBuffer in, out, work;
};
thread_local std::vector<LaneMemory> t_lane_memory;

// Lane buffers for `threads` workers, `in_floats` floats in `in` and `work` and `out_floats` in
// `out`: the calling thread's, or `temporary`'s past kRetainLimit.
std::vector<LaneScratch> lane_scratch(int threads, std::size_t in_floats, std::size_t out_floats,
                                      std::vector<LaneMemory>& temporary) {
  std::vector<LaneMemory>& memory =
      std::max(in_floats, out_floats) * sizeof(float) > kRetainLimit ? temporary : t_lane_memory;
  if (memory.size() < static_cast<std::size_t>(threads)) memory.resize(static_cast<std::size_t>(threads));
  std::vector<LaneScratch> scratch(static_cast<std::size_t>(threads));
  for (std::size_t t = 0; t < scratch.size(); ++t) {
    const auto floats = [&](RetainedBuffer& b, std::size_t n) {
      return reinterpret_cast<float*>(b.reserve(n * sizeof(float), "lane buffers"));
    };
    scratch[t].in = floats(memory[t].in, in_floats);
    scratch[t].work = floats(memory[t].work, in_floats);
    scratch[t].out = floats(memory[t].out, out_floats);
    scratch[t].base.resize(lane_width());
  }
  return scratch;
}

// The lines along axis a of a packed W x H x D x C float image: how many, where each starts, and
// the distance between its samples.
struct Lines {
  std::size_t count = 0, stride = 0;
  int axis = 0;
  std::size_t C = 1, L = 0, plane = 0;
  std::size_t base(std::size_t line) const {
    if (axis == 0) return (line / C) * L + line % C;   // line = row * C + channel
    if (axis == 1) return (line / L) * plane + line % L;  // line = z * L + offset in the row
    return line;                                          // line = offset in the plane
  }
};

// Lanes along x: V / C rows of whole pixels (C floats each), interleaved position by position. A
// position-by-position gather touches V / C rows a kLineFloats apart per load, and rows a power
// of two apart share cache sets, so it missed L1 on nearly every load; the copy therefore walks
// tiles of kTile positions, each row's stretch of a tile read (or written) in one go. The inner
// loops have sizes the compiler knows for the usual channel counts.
constexpr std::int64_t kTile = 16;
template <std::size_t C>
void gather_rows(float* to, const float* A, const std::size_t* base, std::size_t V, std::int64_t n) {
  for (std::int64_t j0 = 0; j0 < n; j0 += kTile) {
    const std::int64_t jn = std::min(kTile, n - j0);
    for (std::size_t l = 0; l < V; l += C) {
      const float* row = A + base[l] + static_cast<std::size_t>(j0) * C;
      float* col = to + static_cast<std::size_t>(j0) * V + l;
      for (std::int64_t j = 0; j < jn; ++j)
        for (std::size_t c = 0; c < C; ++c) col[static_cast<std::size_t>(j) * V + c] = row[static_cast<std::size_t>(j) * C + c];
    }
  }
}
template <std::size_t C>
void scatter_rows(const float* from, float* A, const std::size_t* base, std::size_t V, std::int64_t n) {
  for (std::int64_t j0 = 0; j0 < n; j0 += kTile) {
    const std::int64_t jn = std::min(kTile, n - j0);
    for (std::size_t l = 0; l < V; l += C) {
      float* row = A + base[l] + static_cast<std::size_t>(j0) * C;
      const float* col = from + static_cast<std::size_t>(j0) * V + l;
      for (std::int64_t j = 0; j < jn; ++j)
        for (std::size_t c = 0; c < C; ++c) row[static_cast<std::size_t>(j) * C + c] = col[static_cast<std::size_t>(j) * V + c];
    }
  }
}
void gather_rows(float* lanes, const float* A, const std::size_t* base, std::size_t V, std::size_t C, std::int64_t n) {
  if (gather_rows_simd(lanes, A, base, V, C, n)) return;
  switch (C) {
    case 1: return gather_rows<1>(lanes, A, base, V, n);
    case 2: return gather_rows<2>(lanes, A, base, V, n);
    case 3: return gather_rows<3>(lanes, A, base, V, n);
    case 4: return gather_rows<4>(lanes, A, base, V, n);
    default:
      for (std::int64_t j = 0; j < n; ++j)
        for (std::size_t l = 0; l < V; l += C)
          std::memcpy(lanes + static_cast<std::size_t>(j) * V + l, A + base[l] + static_cast<std::size_t>(j) * C, C * sizeof(float));
  }
}
void scatter_rows(const float* lanes, float* A, const std::size_t* base, std::size_t V, std::size_t C, std::int64_t n) {
  if (scatter_rows_simd(lanes, A, base, V, C, n)) return;
  switch (C) {
    case 1: return scatter_rows<1>(lanes, A, base, V, n);
    case 2: return scatter_rows<2>(lanes, A, base, V, n);
    case 3: return scatter_rows<3>(lanes, A, base, V, n);
    case 4: return scatter_rows<4>(lanes, A, base, V, n);
    default:
      for (std::int64_t j = 0; j < n; ++j)
        for (std::size_t l = 0; l < V; l += C)
          std::memcpy(A + base[l] + static_cast<std::size_t>(j) * C, lanes + static_cast<std::size_t>(j) * V + l, C * sizeof(float));
  }
}

}  // namespace

void run_lane_filters(const Plan& plan, const View& src, const View& dst,
                      const std::array<std::optional<LaneFilter>, 3>& filters) {
  const std::int64_t W = src.width(), H = src.height(), D = src.depth();
  const std::size_t C = static_cast<std::size_t>(src.channels);
  const std::size_t L = static_cast<std::size_t>(W) * C, plane = L * static_cast<std::size_t>(H);
  const std::size_t total = plane * static_cast<std::size_t>(D);
  // The float image is worked in dst's memory or in scratch: either way it must be addressable
  // (a packed float dst larger than that cannot exist, and is refused before it is written).
  if (total > core::kMaxAllocationBytes / sizeof(float))
    throw OutOfMemory("the image's float working copy needs " + std::to_string(total) + " x 4 bytes, more than can be addressed");
  const int threads = plan.schedule.threads;
  const std::size_t V = lane_width();
  const float cval = static_cast<float>(plan.spec.cval);

  // Packed float views are worked in place: the first pass reads src itself and every pass writes
  // dst itself, so no whole-image copy is made (two passes over memory and an image of scratch
  // less). Groups of lines are disjoint and each is read whole before it is written, so src == dst
  // is safe; views that overlap otherwise (the front door copies such sources) use scratch.
  const std::size_t bytes_total = total * sizeof(float);
  const bool src_f32 = src.type == ElementType::f32 && src.is_packed();
  const bool dst_f32 = dst.type == ElementType::f32 && dst.is_packed();
  const bool tangled = core::views_overlap(src, dst) && !core::same_layout(src, dst);
  const bool read_src = src_f32 && !tangled, write_dst = dst_f32 && !tangled;
  std::optional<ScratchImage> work;
  if (!write_dst) work.emplace(bytes_total, 0);
  float* A = write_dst ? static_cast<float*>(dst.data) : work->as<float>();
  const float* in = read_src ? static_cast<const float*>(src.data) : A;
  bool from_src = read_src;  // the pass about to run reads src's own values (in place: A is src too)

  // Row conversion buffers, for sources and destinations that are not packed float only.
  std::vector<std::vector<std::byte>> bytes;
  if (!read_src || !write_dst) bytes.assign(static_cast<std::size_t>(threads), std::vector<std::byte>(L * 8));
  if (!read_src) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t row = 0; row < H * D; ++row)
      read_row(src, 0, row % H, row / H, W, A + static_cast<std::size_t>(row) * L,
               bytes[static_cast<std::size_t>(omp_get_thread_num())].data());
  }

  for (int a = 0; a < 3; ++a) {
    const auto& f = filters[static_cast<std::size_t>(a)];
    const std::int64_t n = src.extent[static_cast<std::size_t>(a)];
    const Border border = plan.spec.border[static_cast<std::size_t>(a)];
    if (!f || (n == 1 && border != Border::constant)) continue;
    Lines lines;
    lines.axis = a;
    lines.C = C, lines.L = L, lines.plane = plane;
    lines.count = total / static_cast<std::size_t>(n);
    lines.stride = a == 0 ? C : a == 1 ? L : plane;
    const std::int64_t pad = f->pad, len = n + 2 * pad;
    const std::int64_t groups = static_cast<std::int64_t>((lines.count + V - 1) / V);
    std::vector<LaneMemory> temporary;
    std::vector<LaneScratch> scratch =
        lane_scratch(threads, static_cast<std::size_t>(len) * V, static_cast<std::size_t>(n) * V, temporary);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4)
    for (std::int64_t g = 0; g < groups; ++g) {
      LaneScratch& s = scratch[static_cast<std::size_t>(omp_get_thread_num())];
      const std::size_t first = static_cast<std::size_t>(g) * V, count = std::min(V, lines.count - first);
      for (std::size_t l = 0; l < count; ++l) s.base[l] = lines.base(first + l);
      const bool full = count == V;
      const bool contiguous = full && a != 0 && s.base[V - 1] - s.base[0] == V - 1;
      // Along x with whole pixels per lane group: each position is V / C pixels, C floats apiece.
      const bool rows = full && a == 0 && V % C == 0;
      const auto position = [&](std::int64_t j) { return static_cast<std::size_t>(j) * lines.stride; };
      // The line's positions into the lane buffer, then its padding by the border mode.
      float* lanes = s.in + static_cast<std::size_t>(pad) * V;
      if (rows) {
        gather_rows(lanes, in, s.base.data(), V, C, n);
      } else {
        for (std::int64_t j = 0; j < n; ++j) {
          float* to = lanes + static_cast<std::size_t>(j) * V;
          if (contiguous) {
            std::memcpy(to, in + s.base[0] + position(j), V * sizeof(float));
          } else {
            for (std::size_t l = 0; l < count; ++l) to[l] = in[s.base[l] + position(j)];
            std::fill(to + count, to + V, 0.0f);
          }
        }
      }
      // Read from src itself: its f32 denormals are read as zero here, as read_row does for every
      // other float path (blur.hpp's contract; they would slow the recursions).
      if (from_src) load_as_float(ElementType::f32, lanes, lanes, static_cast<std::size_t>(n) * V);
      core::extend_line(s.in, n, pad, pad, V, border, cval);
      f->apply(s.in, s.out, s.work, n, pad);
      if (rows) {
        scatter_rows(s.out, A, s.base.data(), V, C, n);
        continue;
      }
      for (std::int64_t j = 0; j < n; ++j) {
        const float* from = s.out + static_cast<std::size_t>(j) * V;
        if (contiguous) {
          std::memcpy(A + s.base[0] + position(j), from, V * sizeof(float));
        } else {
          for (std::size_t l = 0; l < count; ++l) A[s.base[l] + position(j)] = from[l];
        }
      }
    }
    in = A;
    from_src = false;
  }

  // No axis filtered: src's values, denormals read as zero like any float path's.
  if (from_src) load_as_float(ElementType::f32, in, A, total);
  if (write_dst) return;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t row = 0; row < H * D; ++row)
    write_row(A + static_cast<std::size_t>(row) * L, dst, 0, row % H, row / H, W,
              bytes[static_cast<std::size_t>(omp_get_thread_num())].data());
}

}  // namespace fastblur::cpu
