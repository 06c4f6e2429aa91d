#include "scipy_correlate.hpp"

#include <omp.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

#include "hwy/aligned_allocator.h"

#include "core/border.hpp"
#include "core/element.hpp"
#include "cpu/ordered_correlate.hpp"
#include "fastblur/error.hpp"

namespace py = pybind11;

namespace fastblur::python {
namespace {

// 1: symmetric, -1: antisymmetric, 0: neither (SciPy's test, to DBL_EPSILON).
int symmetry(const std::vector<double>& w) {
  const std::size_t n = w.size(), c = n / 2;
  if (n % 2 == 0) return 0;
  bool sym = true, anti = true;
  for (std::size_t k = 1; k <= c; ++k) {
    sym = sym && std::fabs(w[c + k] - w[c - k]) <= DBL_EPSILON;
    anti = anti && std::fabs(w[c + k] + w[c - k]) <= DBL_EPSILON;
  }
  return sym ? 1 : anti ? -1 : 0;
}

// NumPy's numeric dtypes, as the loops below read and write them.
enum class Numeric { b, i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64 };

Numeric numeric_of(const py::dtype& dt) {
  const char kind = dt.kind();
  const auto size = dt.itemsize();
  if (kind == 'b') return Numeric::b;
  if (kind == 'i') return size == 1 ? Numeric::i8 : size == 2 ? Numeric::i16 : size == 4 ? Numeric::i32 : Numeric::i64;
  if (kind == 'u') return size == 1 ? Numeric::u8 : size == 2 ? Numeric::u16 : size == 4 ? Numeric::u32 : Numeric::u64;
  if (kind == 'f' && size == 2) return Numeric::f16;
  if (kind == 'f' && size == 4) return Numeric::f32;
  if (kind == 'f' && size == 8) return Numeric::f64;
  throw py::type_error("correlate1d: unsupported dtype " + std::string(py::str(static_cast<const py::handle&>(dt))));
}

std::ptrdiff_t element_bytes(Numeric n) {
  switch (n) {
    case Numeric::b: case Numeric::i8: case Numeric::u8: return 1;
    case Numeric::i16: case Numeric::u16: case Numeric::f16: return 2;
    case Numeric::i32: case Numeric::u32: case Numeric::f32: return 4;
    default: return 8;
  }
}

// float16, read and written through core's conversion.
struct Half {};

template <class F>
void with_type(Numeric n, F&& f) {
  switch (n) {
    case Numeric::b: return f(bool{});
    case Numeric::i8: return f(std::int8_t{});
    case Numeric::u8: return f(std::uint8_t{});
    case Numeric::i16: return f(std::int16_t{});
    case Numeric::u16: return f(std::uint16_t{});
    case Numeric::i32: return f(std::int32_t{});
    case Numeric::u32: return f(std::uint32_t{});
    case Numeric::i64: return f(std::int64_t{});
    case Numeric::u64: return f(std::uint64_t{});
    case Numeric::f16: return f(Half{});
    case Numeric::f32: return f(float{});
    case Numeric::f64: return f(double{});
  }
}

// `count` values `stride` bytes apart into consecutive doubles. Adjacent values (the usual case:
// a row, or neighbouring lines of a C-ordered array) in a loop the compiler vectorises.
template <class T>
void load(const std::byte* p, std::ptrdiff_t stride, std::int64_t count, double* to) {
  if constexpr (std::is_same_v<T, Half>) {
    for (std::int64_t b = 0; b < count; ++b) to[b] = core::load_element(ElementType::f16, p + b * stride);
  } else {
    if (stride == static_cast<std::ptrdiff_t>(sizeof(T))) {
      if constexpr (std::is_same_v<T, double>) {
        std::memcpy(to, p, static_cast<std::size_t>(count) * sizeof(double));
        return;
      }
      for (std::int64_t b = 0; b < count; ++b) {
        T v;
        std::memcpy(&v, p + b * static_cast<std::ptrdiff_t>(sizeof(T)), sizeof v);
        to[b] = static_cast<double>(v);
      }
      return;
    }
    for (std::int64_t b = 0; b < count; ++b) {
      T v;
      std::memcpy(&v, p + b * stride, sizeof v);
      to[b] = static_cast<double>(v);
    }
  }
}

// Consecutive doubles to `count` values `stride` bytes apart, as C (and NumPy's unsafe casting)
// converts them: integers truncated toward zero, bool true where the truncation is not 0.
template <class T>
T convert(double v) {
  if constexpr (std::is_same_v<T, bool>) return std::trunc(v) != 0.0;
  else return static_cast<T>(v);
}
template <class T>
void store(const double* from, std::int64_t count, std::byte* p, std::ptrdiff_t stride) {
  if constexpr (std::is_same_v<T, Half>) {
    for (std::int64_t b = 0; b < count; ++b) core::store_element(ElementType::f16, p + b * stride, from[b]);
  } else {
    if (stride == static_cast<std::ptrdiff_t>(sizeof(T))) {
      for (std::int64_t b = 0; b < count; ++b) {
        const T v = convert<T>(from[b]);
        std::memcpy(p + b * static_cast<std::ptrdiff_t>(sizeof(T)), &v, sizeof v);
      }
      return;
    }
    for (std::int64_t b = 0; b < count; ++b) {
      const T v = convert<T>(from[b]);
      std::memcpy(p + b * stride, &v, sizeof v);
    }
  }
}

// How many neighbouring lines share a buffer: one vector's worth and more, interleaved.
constexpr std::int64_t kBlock = 64;

// The bytes an array spans, [first, last].
std::pair<std::uintptr_t, std::uintptr_t> span_of(const py::array& a) {
  auto lo = reinterpret_cast<std::uintptr_t>(a.data()), hi = lo;
  for (py::ssize_t d = 0; d < a.ndim(); ++d) {
    const auto reach = static_cast<std::uintptr_t>(std::abs(a.strides(d)) * (a.shape(d) - 1));
    if (a.strides(d) < 0) lo -= reach;
    else hi += reach;
  }
  return {lo, hi + static_cast<std::uintptr_t>(a.itemsize()) - 1};
}
bool overlaps(const py::array& a, const py::array& b) {
  const auto x = span_of(a), y = span_of(b);
  return x.first <= y.second && y.first <= x.second;
}

// Filtering across rows: the lane axis is adjacent in memory, so each output row is computed from
// its neighbouring rows where they lie - in the source itself for float64 data, else converted once
// each into a ring of rows - a strip of the lane axis at a time, sized so the ring stays in cache.
struct Rows {
  const std::byte* sbase;
  std::byte* dbase;
  Numeric st, dt;
  std::int64_t n;
  int size1, size2, sym;
  const double* fw;
  const std::vector<std::int64_t>* map;
  double cval;
  std::ptrdiff_t s_step, d_step, d_lane;
  std::int64_t lane_extent;
  std::vector<std::int64_t> ext, s_str, d_str;
  std::int64_t outer;
};

void correlate_rows(const Rows& r, int nthreads) {
  const std::int64_t taps = r.size1 + r.size2 + 1;
  // The strip: the taps' rows together within about 256 KiB, in whole vectors.
  const std::int64_t S = std::min(r.lane_extent, std::max<std::int64_t>(64, (std::int64_t{128} << 10) / 8 / taps / 64 * 64));
  const std::int64_t chunks = (r.lane_extent + S - 1) / S;
  // Pieces of the filtered axis too, where strips alone leave threads idle (a 2D image has a few
  // strips): each piece refills its ring, so pieces are kept to at least 8 taps' worth of rows.
  const std::int64_t want = 4 * static_cast<std::int64_t>(nthreads);
  const std::int64_t pieces = r.outer * chunks >= want ? 1
                              : std::clamp<std::int64_t>(want / (r.outer * chunks), 1, std::max<std::int64_t>(1, r.n / (8 * taps)));
  const std::int64_t piece_rows = (r.n + pieces - 1) / pieces;
  const std::int64_t blocks = r.outer * chunks * pieces;
  const auto aligned = [](const void* p, std::ptrdiff_t a, std::ptrdiff_t b) {
    return reinterpret_cast<std::uintptr_t>(p) % alignof(double) == 0 && a % 8 == 0 && b % 8 == 0;
  };
  // Rows are always copied into the ring, float64 too: read in place, rows a power of two apart map
  // to the same L1 sets, and a few dozen taps thrash them (65 taps ran 3x slower than the copy).
  bool dst_aligned = true;
  for (std::size_t k = 0; k < r.ext.size(); ++k) dst_aligned = dst_aligned && r.d_str[k] % 8 == 0;
  const bool direct_out = r.dt == Numeric::f64 && r.d_lane == 8 && dst_aligned && aligned(r.dbase, r.d_step, 8);
  const std::vector<std::int64_t>& map = *r.map;
#pragma omp parallel num_threads(nthreads)
  {
    std::vector<double> cval_row(static_cast<std::size_t>(S), r.cval), out(static_cast<std::size_t>(S));
    // Ring rows one cache line longer than the strip, so that successive rows start in different sets.
    const std::int64_t pitch = S + 8;
    std::vector<double> ring(static_cast<std::size_t>(taps * pitch));
    std::vector<const double*> rows(static_cast<std::size_t>(taps));
#pragma omp for schedule(static)
    for (std::int64_t block = 0; block < blocks; ++block) {
      const std::int64_t l0 = (block % pieces) * piece_rows, l1 = std::min(r.n, l0 + piece_rows);
      std::int64_t rest = block / pieces / chunks;
      const std::int64_t first = (block / pieces % chunks) * S, count = std::min(S, r.lane_extent - first);
      std::ptrdiff_t so = first * static_cast<std::ptrdiff_t>(element_bytes(r.st)), doff = first * r.d_lane;
      for (std::size_t k = r.ext.size(); k-- > 0;) {
        const std::int64_t i = rest % r.ext[k];
        rest /= r.ext[k];
        so += i * r.s_str[k];
        doff += i * r.d_str[k];
      }
      // Extended row j (0 <= j < len) is source row map[j], or the cval row.
      const auto convert_row = [&](std::size_t j, double* to) {
        if (map[j] < 0) {
          std::copy(cval_row.begin(), cval_row.begin() + count, to);
          return;
        }
        with_type(r.st, [&](auto tag) { load<decltype(tag)>(r.sbase + so + map[j] * r.s_step, element_bytes(r.st), count, to); });
      };
      // Output row l reads extended rows l .. l + taps - 1: the ring holds them, slot j mod taps.
      for (std::int64_t j = l0; j + 1 < l0 + taps; ++j) convert_row(static_cast<std::size_t>(j), ring.data() + (j % taps) * pitch);
      for (std::int64_t l = l0; l < l1; ++l) {
        const std::int64_t newest = l + taps - 1;  // extended row entering the ring
        convert_row(static_cast<std::size_t>(newest), ring.data() + (newest % taps) * pitch);
        for (std::int64_t t = 0; t < taps; ++t) rows[static_cast<std::size_t>(t)] = ring.data() + ((l + t) % taps) * pitch;
        const double* const* centre = rows.data() + r.size1;
        std::byte* to = r.dbase + doff + l * r.d_step;
        if (direct_out) {
          cpu::ordered_correlate_rows(centre, 0, reinterpret_cast<double*>(to), static_cast<std::size_t>(count), r.fw,
                                      r.size1, r.size2, r.sym);
        } else {
          cpu::ordered_correlate_rows(centre, 0, out.data(), static_cast<std::size_t>(count), r.fw, r.size1, r.size2, r.sym);
          with_type(r.dt, [&](auto tag) { store<decltype(tag)>(out.data(), count, to, r.d_lane); });
        }
      }
    }
  }
}

}  // namespace

void scipy_correlate1d(const py::array& src, py::array& dst, int axis, const std::vector<double>& weights,
                       Border border, double cval, int threads) {
  const int ndim = static_cast<int>(src.ndim());
  if (axis < 0 || axis >= ndim) throw InvalidArgument("correlate1d: axis out of range");
  if (weights.empty()) throw InvalidArgument("correlate1d: no weights");
  if (dst.ndim() != src.ndim() || !dst.writeable())
    throw InvalidArgument("correlate1d: the output must be a writeable array of the input's shape");
  for (int d = 0; d < ndim; ++d)
    if (src.shape(d) != dst.shape(d)) throw InvalidArgument("correlate1d: shapes differ");
  const Numeric st = numeric_of(src.dtype()), dt = numeric_of(dst.dtype());
  const std::int64_t n = src.shape(axis);
  const int size1 = static_cast<int>(weights.size() / 2);
  const int size2 = static_cast<int>(weights.size()) - size1 - 1;
  const int sym = symmetry(weights);
  // The lanes: the other axis whose elements lie closest together, unless the filtered axis is
  // itself the closest (then one line at a time, vectorised along it).
  int lane_axis = -1;
  for (int d = 0; d < ndim; ++d)
    if (d != axis && (lane_axis < 0 || std::abs(src.strides(d)) < std::abs(src.strides(lane_axis)))) lane_axis = d;
  if (lane_axis >= 0 && std::abs(src.strides(lane_axis)) > std::abs(src.strides(axis))) lane_axis = -1;
  const std::int64_t lane_extent = lane_axis >= 0 ? src.shape(lane_axis) : 1;
  const std::int64_t B = std::min<std::int64_t>(kBlock, lane_extent);
  const std::int64_t chunks = (lane_extent + B - 1) / B;
  // Blocks: every index of the axes other than `axis` and the lane axis, times the lane chunks.
  std::vector<std::int64_t> ext, s_str, d_str;
  for (int d = 0; d < ndim; ++d)
    if (d != axis && d != lane_axis) ext.push_back(src.shape(d)), s_str.push_back(src.strides(d)), d_str.push_back(dst.strides(d));
  std::int64_t outer = 1;
  for (std::int64_t e : ext) outer *= e;
  if (outer == 0 || n == 0 || lane_extent == 0) return;
  const std::int64_t blocks = outer * chunks;
  const auto* sbase = static_cast<const std::byte*>(src.data());
  auto* dbase = static_cast<std::byte*>(dst.mutable_data());
  const std::ptrdiff_t s_step = src.strides(axis), d_step = dst.strides(axis);
  const std::ptrdiff_t s_lane = lane_axis >= 0 ? src.strides(lane_axis) : 0, d_lane = lane_axis >= 0 ? dst.strides(lane_axis) : 0;
  const double* fw = weights.data() + size1;
  const int nthreads = threads > 0 ? threads : omp_get_max_threads();
  const std::vector<std::int64_t> map = core::border_map(-size1, n + size1 + size2, n, border);
  py::gil_scoped_release release;
  const std::ptrdiff_t s_item = static_cast<std::ptrdiff_t>(src.itemsize());
  // In place (or overlapping), rows are written before later outputs read them: the lines path
  // buffers whole lines first.
  if (lane_axis >= 0 && s_lane == s_item && !overlaps(src, dst)) {
    // The row: the lane axis with every other axis that continues it in memory in both arrays (the
    // x and channel axes of an image filtered along y make one row of width x channels).
    std::int64_t row = lane_extent;
    std::vector<std::int64_t> r_ext, r_s, r_d;
    bool merged = true;
    std::vector<bool> used(ext.size(), false);
    while (merged) {
      merged = false;
      for (std::size_t k = 0; k < ext.size(); ++k)
        if (!used[k] && s_str[k] == row * s_lane && d_str[k] == row * d_lane) {
          row *= ext[k];
          used[k] = merged = true;
        }
    }
    for (std::size_t k = 0; k < ext.size(); ++k)
      if (!used[k]) r_ext.push_back(ext[k]), r_s.push_back(s_str[k]), r_d.push_back(d_str[k]);
    // Rows shorter than a few vectors vectorise badly; the lines path interleaves them instead.
    if (row >= 32) {
      std::int64_t r_outer = 1;
      for (std::int64_t e : r_ext) r_outer *= e;
      correlate_rows(Rows{sbase, dbase, st, dt, n, size1, size2, sym, fw, &map, cval, s_step, d_step, d_lane, row,
                          r_ext, r_s, r_d, r_outer},
                     nthreads);
      return;
    }
  }
#pragma omp parallel num_threads(nthreads)
  {
    const std::size_t len = static_cast<std::size_t>(n + size1 + size2);
    // Kept per thread across calls: freshly mapped buffers cost a page fault per 4 KiB every call.
    thread_local hwy::AlignedFreeUniquePtr<double[]> buf_store, out_store;
    thread_local std::size_t buf_size = 0, out_size = 0;
    if (buf_size < len * static_cast<std::size_t>(B)) {
      buf_size = len * static_cast<std::size_t>(B);
      buf_store = hwy::AllocateAligned<double>(buf_size);
    }
    if (out_size < static_cast<std::size_t>(n * B)) {
      out_size = static_cast<std::size_t>(n * B);
      out_store = hwy::AllocateAligned<double>(out_size);
    }
    const std::span<double> buf(buf_store.get(), buf_size), out(out_store.get(), out_size);
#pragma omp for schedule(static)
    for (std::int64_t block = 0; block < blocks; ++block) {
      std::int64_t rest = block / chunks;
      const std::int64_t first = (block % chunks) * B, count = std::min(B, lane_extent - first);
      std::ptrdiff_t so = first * s_lane, doff = first * d_lane;
      for (std::size_t k = ext.size(); k-- > 0;) {
        const std::int64_t i = rest % ext[k];
        rest /= ext[k];
        so += i * s_str[k];
        doff += i * d_str[k];
      }
      // The lines extended by the border mode, as SciPy's line buffer, `count` lanes interleaved
      // (the unused lanes of a short block hold zeros): the line itself, then its extension copied
      // from the positions the border mode maps it to.
      const std::size_t Bz = static_cast<std::size_t>(B);
      with_type(st, [&](auto tag) {
        using T = decltype(tag);
        double* line = buf.data() + static_cast<std::size_t>(size1) * Bz;
        if (B == 1) {
          load<T>(sbase + so, s_step, n, line);
        } else if (count == B && s_step == B * s_lane) {
          load<T>(sbase + so, s_lane, n * B, line);  // lanes and positions adjacent: one run (pixels)
        } else {
          for (std::int64_t l = 0; l < n; ++l) {
            double* to = line + static_cast<std::size_t>(l) * Bz;
            load<T>(sbase + so + l * s_step, s_lane, count, to);
            if (count < B) std::fill(to + count, to + B, 0.0);
          }
        }
      });
      const auto extend = [&](std::size_t j) {
        double* to = buf.data() + j * Bz;
        const std::int64_t m = map[j];
        if (m < 0) {
          std::fill(to, to + count, cval);
          std::fill(to + count, to + B, 0.0);
        } else {
          const double* from = buf.data() + static_cast<std::size_t>(m + size1) * Bz;
          std::copy(from, from + B, to);
        }
      };
      for (std::size_t j = 0; j < static_cast<std::size_t>(size1); ++j) extend(j);
      for (std::size_t j = static_cast<std::size_t>(size1 + n); j < len; ++j) extend(j);
      const double* center = buf.data() + static_cast<std::size_t>(size1) * Bz;
      // float64 outputs whose lanes are adjacent are written in place; others through `out`.
      const bool direct = dt == Numeric::f64 && (B == 1 ? d_step : d_lane) == static_cast<std::ptrdiff_t>(sizeof(double));
      if (direct) {
        auto* to = reinterpret_cast<double*>(dbase + doff);
        if (B == 1) {
          cpu::ordered_correlate(center, to, static_cast<std::size_t>(n), fw, size1, size2, sym, 1);
        } else if (count == B && d_step == B * d_lane) {  // pixels: the whole line in one run
          cpu::ordered_correlate(center, to, static_cast<std::size_t>(n * B), fw, size1, size2, sym, Bz);
        } else {
          for (std::int64_t l = 0; l < n; ++l)
            cpu::ordered_correlate(center + static_cast<std::size_t>(l) * Bz, reinterpret_cast<double*>(dbase + doff + l * d_step),
                                   static_cast<std::size_t>(count), fw, size1, size2, sym, Bz);
        }
        continue;
      }
      cpu::ordered_correlate(center, out.data(), static_cast<std::size_t>(n * B), fw, size1, size2, sym, Bz);
      with_type(dt, [&](auto tag) {
        using T = decltype(tag);
        if (B == 1) {
          store<T>(out.data(), n, dbase + doff, d_step);
        } else if (count == B && d_step == B * d_lane) {
          store<T>(out.data(), n * B, dbase + doff, d_lane);
        } else {
          for (std::int64_t l = 0; l < n; ++l) store<T>(out.data() + l * B, count, dbase + doff + l * d_step, d_lane);
        }
      });
    }
  }
}

}  // namespace fastblur::python
