// The `fir` algorithm: exact separable convolution. A pass along x convolves each row (padded
// by the border mode) in SIMD across channels; passes along y and z combine whole rows, in column
// strips sized to stay in cache. Intermediates are packed float (double for f64) images.
#include "cpu/fir.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "core/border.hpp"
#include "core/overlap.hpp"
#include "cpu/fir_simd.hpp"
#include "cpu/line_io.hpp"
#include "cpu/scratch.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::cpu {
namespace {

template <class T>
std::vector<T> allocate(std::size_t count, const char* what) {
  try {
    return std::vector<T>(count);
  } catch (const std::bad_alloc&) {
    throw OutOfMemory(std::string("cannot allocate ") + std::to_string(count * sizeof(T)) +
                      " bytes for the " + what);
  } catch (const std::length_error&) {
    throw OutOfMemory(std::string("the ") + what + " would need more memory than can be addressed");
  }
}

// The half kernel w[0..r] of the sampled Gaussian in the working type.
template <class T>
std::vector<T> half_kernel(double sigma, int radius) {
  const std::vector<double> w = kernel::gaussian_weights(sigma, radius);
  std::vector<T> h(static_cast<std::size_t>(radius) + 1);
  for (int k = 0; k <= radius; ++k) h[static_cast<std::size_t>(k)] = static_cast<T>(w[static_cast<std::size_t>(radius + k)]);
  return h;
}

struct Shape {
  std::int64_t W, H, D;
  int C;
  std::size_t row_len() const { return static_cast<std::size_t>(W) * static_cast<std::size_t>(C); }
};

// Per-thread scratch, allocated before a parallel region so nothing inside it can throw.
template <class T>
struct Scratch {
  std::vector<T> a, b;
  std::vector<std::byte> bytes;
  std::vector<const T*> ptrs;
};

// Rows along x: src row -> padded line -> convolved into out_buf (packed) or straight into dst.
template <class T>
void pass_x(const View& src, const Shape& s, const std::vector<T>& w, int r, Border border, T cval,
            T* out_buf, const View* dst, int threads) {
  const std::size_t C = static_cast<std::size_t>(s.C);
  const std::size_t L = s.row_len();
  const std::size_t padded_len = (static_cast<std::size_t>(s.W) + 2 * static_cast<std::size_t>(r)) * C;
  const std::size_t bytes = L * std::max(element_size(src.type), dst ? element_size(dst->type) : 1);
  std::vector<Scratch<T>> scratch(static_cast<std::size_t>(threads));
  for (auto& sc : scratch) {
    sc.a = allocate<T>(padded_len, "padded row");
    if (!out_buf) sc.b = allocate<T>(L, "row buffer");
    sc.bytes = allocate<std::byte>(bytes, "row buffer");
  }
  const std::int64_t rows = s.H * s.D;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t row = 0; row < rows; ++row) {
    Scratch<T>& sc = scratch[static_cast<std::size_t>(omp_get_thread_num())];
    const std::int64_t y = row % s.H, z = row / s.H;
    T* P = sc.a.data();
    read_row(src, 0, y, z, s.W, P + static_cast<std::size_t>(r) * C, sc.bytes.data());
    const auto fill = [&](std::int64_t i) {
      T* to = P + static_cast<std::size_t>(i + r) * C;
      const std::int64_t m = core::border_index(i, s.W, border);
      if (m < 0) std::fill(to, to + C, cval);
      else std::copy_n(P + static_cast<std::size_t>(m + r) * C, C, to);
    };
    for (std::int64_t i = -r; i < 0; ++i) fill(i);
    for (std::int64_t i = s.W; i < s.W + r; ++i) fill(i);
    T* o = out_buf ? out_buf + static_cast<std::size_t>(row) * L : sc.b.data();
    convolve_line(P, o, L, w.data(), r, C);
    if (!out_buf) write_row(o, *dst, 0, y, z, s.W, sc.bytes.data());
  }
}

// Along y (axis 1) or z (axis 2) of a packed working image: output row j of outer index m is the
// weighted sum of input rows j-r..j+r. `s_a` steps along the pass axis, `s_b` along the outer one.
template <class T>
void pass_rows(const T* in, std::size_t s_a, std::size_t s_b, std::int64_t N, std::int64_t M,
               const Shape& s, const std::vector<T>& w, int r, Border border, T cval, T* out,
               const View* dst, int axis, int threads) {
  const std::size_t L = s.row_len();
  const std::size_t taps = 2 * static_cast<std::size_t>(r) + 1;
  // A strip of `taps` rows should stay in L2 (about 256 KiB); 48 is a multiple of 1..4 channels.
  std::size_t S = (256 * 1024 / sizeof(T)) / taps;
  S = std::clamp<std::size_t>(S, 48, 4096) / 48 * 48;
  if (S >= L) S = L;
  const std::int64_t strips = static_cast<std::int64_t>((L + S - 1) / S);
  const std::int64_t block = std::min<std::int64_t>(N, std::max<std::int64_t>(64, 4 * static_cast<std::int64_t>(r)));
  const std::int64_t blocks = (N + block - 1) / block;
  const std::int64_t tasks = M * strips * blocks;
  std::vector<T> cval_row = allocate<T>(S, "border row");
  std::fill(cval_row.begin(), cval_row.end(), cval);
  std::vector<Scratch<T>> scratch(static_cast<std::size_t>(threads));
  for (auto& sc : scratch) {
    sc.ptrs.resize(taps);
    if (!out) {
      sc.b = allocate<T>(S, "row buffer");
      sc.bytes = allocate<std::byte>(S * element_size(dst->type), "row buffer");
    }
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic)
  for (std::int64_t t = 0; t < tasks; ++t) {
    Scratch<T>& sc = scratch[static_cast<std::size_t>(omp_get_thread_num())];
    const std::int64_t m = t / (strips * blocks);
    const std::int64_t strip = (t / blocks) % strips;
    const std::int64_t b = t % blocks;
    const std::size_t x0 = static_cast<std::size_t>(strip) * S;
    const std::size_t len = std::min(S, L - x0);
    const T* base = in + static_cast<std::size_t>(m) * s_b + x0;
    for (std::int64_t j = b * block; j < std::min(N, (b + 1) * block); ++j) {
      for (std::size_t k = 0; k < taps; ++k) {
        const std::int64_t idx = core::border_index(j + static_cast<std::int64_t>(k) - r, N, border);
        sc.ptrs[k] = idx < 0 ? cval_row.data() : base + static_cast<std::size_t>(idx) * s_a;
      }
      T* o = out ? out + static_cast<std::size_t>(m) * s_b + static_cast<std::size_t>(j) * s_a + x0 : sc.b.data();
      convolve_rows(sc.ptrs.data(), o, len, w.data(), r);
      if (!out) {
        const std::int64_t y = axis == 1 ? j : m, z = axis == 1 ? m : j;
        write_row(o, *dst, static_cast<std::int64_t>(x0) / s.C, y, z, static_cast<std::int64_t>(len) / s.C,
                  sc.bytes.data());
      }
    }
  }
}

template <class T>
void fir_typed(const View& src, const View& dst, const BlurSpec& spec, const std::array<int, 3>& radius) {
  const Shape s{src.width(), src.height(), src.depth(), src.channels};
  bool active[3];
  double work = 0.0;
  for (int a = 0; a < 3; ++a) {
    // A line of one sample is unchanged by any symmetric border mode, but not by `constant`.
    active[a] = radius[a] > 0 && (src.extent[a] > 1 || spec.border[a] == Border::constant);
    work += static_cast<double>(src.pixel_count()) * s.C * (active[a] ? 2.0 * radius[a] + 1.0 : 1.0);
  }
  int threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  if (work < 2e5) threads = 1;  // waking threads costs more than the work
  threads = std::max(1, threads);
  const T cval = static_cast<T>(spec.cval);
  const int last = active[2] ? 2 : active[1] ? 1 : active[0] ? 0 : -1;
  const std::vector<T> identity{T(1)};
  const std::vector<T> wx = active[0] ? half_kernel<T>(spec.sigma[0], radius[0]) : identity;
  const int rx = active[0] ? radius[0] : 0;

  if (last <= 0) {  // at most the x pass: rows go straight from src to dst
    if (last < 0 && src.data == dst.data && src.type == dst.type && src.stride == dst.stride) return;
    pass_x<T>(src, s, wx, rx, spec.border[0], cval, nullptr, &dst, threads);
    return;
  }
  const std::size_t total = s.row_len() * static_cast<std::size_t>(s.H) * static_cast<std::size_t>(s.D);
  if (total > SIZE_MAX / sizeof(T) / 2) throw OutOfMemory("the intermediate image would not fit in memory");
  ScratchImage first(total * sizeof(T), 0);
  std::optional<ScratchImage> second;
  T* A = first.as<T>();
  T* B = nullptr;
  pass_x<T>(src, s, wx, rx, spec.border[0], cval, A, nullptr, threads);
  const std::size_t L = s.row_len(), plane = L * static_cast<std::size_t>(s.H);
  if (active[1]) {
    const bool final = last == 1;
    if (!final) {
      second.emplace(total * sizeof(T), 1);
      B = second->as<T>();
    }
    pass_rows<T>(A, L, plane, s.H, s.D, s, half_kernel<T>(spec.sigma[1], radius[1]), radius[1],
                 spec.border[1], cval, B, final ? &dst : nullptr, 1, threads);
    if (!final) std::swap(A, B);
  }
  if (active[2]) {
    pass_rows<T>(A, plane, L, s.D, s.H, s, half_kernel<T>(spec.sigma[2], radius[2]), radius[2],
                 spec.border[2], cval, nullptr, &dst, 2, threads);
  }
}

}  // namespace

void fir_blur(const View& src_in, const View& dst, const BlurSpec& spec, const std::array<int, 3>& radius) {
  // Views that overlap without being the same view are read from a packed copy of the source.
  View src = src_in;
  std::vector<std::byte> copy;
  if (core::views_overlap(src_in, dst) && !core::same_layout(src_in, dst)) {
    copy = allocate<std::byte>(static_cast<std::size_t>(src_in.pixel_count()) * src_in.channels *
                                   element_size(src_in.type), "copy of the overlapping source");
    src = core::copy_packed(src_in, copy.data());
  }
  if (src.type == ElementType::f64 || dst.type == ElementType::f64)
    fir_typed<double>(src, dst, spec, radius);
  else
    fir_typed<float>(src, dst, spec, radius);
}

}  // namespace fastblur::cpu
