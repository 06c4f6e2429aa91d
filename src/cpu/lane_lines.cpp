#include "cpu/lane_lines.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/border.hpp"
#include "cpu/iir_simd.hpp"
#include "cpu/line_io.hpp"
#include "cpu/scratch.hpp"
#include "fastblur/error.hpp"

namespace fastblur::cpu {
namespace {

struct LaneScratch {
  std::vector<float> in, out;
  std::vector<std::size_t> base;
};

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

}  // namespace

void run_lane_filters(const View& src, const View& dst, const BlurSpec& spec,
                      const std::array<std::optional<LaneFilter>, 3>& filters) {
  const std::int64_t W = src.width(), H = src.height(), D = src.depth();
  const std::size_t C = static_cast<std::size_t>(src.channels);
  const std::size_t L = static_cast<std::size_t>(W) * C, plane = L * static_cast<std::size_t>(H);
  const std::size_t total = plane * static_cast<std::size_t>(D);
  if (total > SIZE_MAX / sizeof(float) / 2) throw OutOfMemory("the working image would not fit in memory");
  ScratchImage work(total * sizeof(float), 0);
  float* A = work.as<float>();
  int threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  if (total < 50000) threads = 1;
  threads = std::max(1, threads);
  const std::size_t V = lane_width();
  const float cval = static_cast<float>(spec.cval);

  std::vector<std::vector<std::byte>> bytes(static_cast<std::size_t>(threads), std::vector<std::byte>(L * 8));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t row = 0; row < H * D; ++row)
    read_row(src, 0, row % H, row / H, W, A + static_cast<std::size_t>(row) * L,
             bytes[static_cast<std::size_t>(omp_get_thread_num())].data());

  for (int a = 0; a < 3; ++a) {
    const auto& f = filters[static_cast<std::size_t>(a)];
    const std::int64_t n = src.extent[static_cast<std::size_t>(a)];
    const Border border = spec.border[static_cast<std::size_t>(a)];
    if (!f || (n == 1 && border != Border::constant)) continue;
    Lines lines;
    lines.axis = a;
    lines.C = C, lines.L = L, lines.plane = plane;
    lines.count = total / static_cast<std::size_t>(n);
    lines.stride = a == 0 ? C : a == 1 ? L : plane;
    const std::int64_t pad = f->pad, len = n + 2 * pad;
    const std::int64_t groups = static_cast<std::int64_t>((lines.count + V - 1) / V);
    std::vector<LaneScratch> scratch(static_cast<std::size_t>(threads));
    for (auto& s : scratch) {
      s.in.resize(static_cast<std::size_t>(len) * V);
      s.out.resize(static_cast<std::size_t>(n) * V);
      s.base.resize(V);
    }
    // Along x with whole pixels per lane group: each position is V / C pixels, C floats apiece.
    const bool pixels = a == 0 && V % C == 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4)
    for (std::int64_t g = 0; g < groups; ++g) {
      LaneScratch& s = scratch[static_cast<std::size_t>(omp_get_thread_num())];
      const std::size_t first = static_cast<std::size_t>(g) * V, count = std::min(V, lines.count - first);
      for (std::size_t l = 0; l < count; ++l) s.base[l] = lines.base(first + l);
      const bool full = count == V;
      const bool contiguous = full && a != 0 && s.base[V - 1] - s.base[0] == V - 1;
      const auto position = [&](std::int64_t j) { return static_cast<std::size_t>(j) * lines.stride; };
      for (std::int64_t j = -pad; j < n + pad; ++j) {
        float* to = s.in.data() + static_cast<std::size_t>(j + pad) * V;
        const std::int64_t m = core::border_index(j, n, border);
        if (m < 0) {
          std::fill(to, to + V, cval);
        } else if (contiguous) {
          std::memcpy(to, A + s.base[0] + position(m), V * sizeof(float));
        } else if (pixels && full) {
          for (std::size_t l = 0; l < V; l += C) std::memcpy(to + l, A + s.base[l] + position(m), C * sizeof(float));
        } else {
          for (std::size_t l = 0; l < count; ++l) to[l] = A[s.base[l] + position(m)];
          std::fill(to + count, to + V, 0.0f);
        }
      }
      f->apply(s.in.data(), s.out.data(), n, pad);
      for (std::int64_t j = 0; j < n; ++j) {
        const float* from = s.out.data() + static_cast<std::size_t>(j) * V;
        if (contiguous) {
          std::memcpy(A + s.base[0] + position(j), from, V * sizeof(float));
        } else if (pixels && full) {
          for (std::size_t l = 0; l < V; l += C) std::memcpy(A + s.base[l] + position(j), from + l, C * sizeof(float));
        } else {
          for (std::size_t l = 0; l < count; ++l) A[s.base[l] + position(j)] = from[l];
        }
      }
    }
  }

#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t row = 0; row < H * D; ++row)
    write_row(A + static_cast<std::size_t>(row) * L, dst, 0, row % H, row / H, W,
              bytes[static_cast<std::size_t>(omp_get_thread_num())].data());
}

}  // namespace fastblur::cpu
