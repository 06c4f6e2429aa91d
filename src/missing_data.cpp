// Normalized convolution (fastblur/missing_data.hpp) through the front door: the source's values and
// their weights packed into a float image with the weights as its last channel, one blur of that
// image with the request's own spec (so its own plan, algorithm and device), then the weighted sums
// divided back into the destination.
#include "fastblur/missing_data.hpp"

#include <omp.h>

#include <atomic>
#include <cmath>
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "core/element.hpp"
#include "core/overlap.hpp"
#include "core/size.hpp"
#include "cpu/execute.hpp"
#include "cpu/missing_rows_simd.hpp"
#include "cpu/scratch.hpp"
#include "fastblur/error.hpp"
#include "front_door.hpp"
#include "missing_rules.hpp"

namespace fastblur {
namespace {

// A group of source channels blurred together with one weight channel: `channels` lists them (at most
// 3), the work image holds their weighted values then the weight.
struct Group {
  std::vector<int> channels;
};

bool is_float(ElementType t) { return t == ElementType::f16 || t == ElementType::f32 || t == ElementType::f64; }

// Element access typed where it is common (the loops then hold no switch per element), by
// core::load_element / store_element elsewhere.
struct AnyType {};
template <class E>
inline double load_as(ElementType type, const std::byte* p) {
  if constexpr (std::is_same_v<E, AnyType>) {
    return core::load_element(type, p);
  } else {
    E v;
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
  }
}
template <class E>
inline void store_as(ElementType type, std::byte* p, double v) {
  if constexpr (std::is_same_v<E, float> || std::is_same_v<E, double>) {
    const E e = static_cast<E>(v);
    std::memcpy(p, &e, sizeof e);
  } else {
    core::store_element(type, p, v);
  }
}
template <class F>
void with_element(ElementType t, F&& f) {
  switch (t) {
    case ElementType::u8: return f(std::uint8_t{});
    case ElementType::u16: return f(std::uint16_t{});
    case ElementType::f32: return f(float{});
    case ElementType::f64: return f(double{});
    default: return f(AnyType{});
  }
}

// A mask's weight at an element (1 where there is no mask): flags say missing, floats are weights.
template <class M>
inline double mask_weight(const MissingData& m, std::int64_t x, std::int64_t y, std::int64_t z, int c) {
  const int mc = m.mask.channels == 1 ? 0 : c;
  const double v = load_as<M>(m.mask.type, m.mask.pixel(x, y, z) + mc * element_size(m.mask.type));
  return is_float(m.mask.type) ? v : (v != 0.0 ? 0.0 : 1.0);
}

void check_request(const View& src, const View& dst, const BlurSpec& spec, const MissingData& m) {
  front_door::check_views(src, dst);
  if (m.mask.data) {
    validate_source(m.mask);
    if (m.mask.extent != src.extent || (m.mask.channels != src.channels && m.mask.channels != 1))
      throw InvalidArgument("the mask's shape differs from the data's");
    const ElementType t = m.mask.type;
    if (t != ElementType::b8 && t != ElementType::u8 && t != ElementType::f32 && t != ElementType::f64)
      throw InvalidArgument("a mask is bool or uint8 (nonzero = missing) or float32/float64 weights in [0, 1], not " +
                            std::string(to_string(t)));
  }
  missing::check_weights(src.type, src.channels, m.mask.data != nullptr, spec, m);
}

// Float certainty weights must lie in [0, 1]: checked before anything is written.
void check_mask_values(const View& mask) {
  if (!mask.data || !is_float(mask.type)) return;
  for (std::int64_t z = 0; z < mask.depth(); ++z)
    for (std::int64_t y = 0; y < mask.height(); ++y)
      for (std::int64_t x = 0; x < mask.width(); ++x)
        for (int c = 0; c < mask.channels; ++c) {
          const double w = core::load_element(mask.type, mask.pixel(x, y, z) + c * element_size(mask.type));
          if (!(w >= 0.0 && w <= 1.0))
            throw InvalidArgument("mask weights must lie in [0, 1]: " + std::to_string(w) + " at (" + std::to_string(x) +
                                  ", " + std::to_string(y) + ", " + std::to_string(z) + ")");
        }
}

// The weight of source element (x, y, z, c): NaN and mask (alpha is handled by its own group).
double weight_of(const View& src, const MissingData& m, std::int64_t x, std::int64_t y, std::int64_t z, int c, double v) {
  double w = 1.0;
  if (m.omit_nan && std::isnan(v)) w = 0.0;
  if (m.mask.data) {
    const int mc = m.mask.channels == 1 ? 0 : c;
    const double mv = core::load_element(m.mask.type, m.mask.pixel(x, y, z) + mc * element_size(m.mask.type));
    w *= is_float(m.mask.type) ? mv : (mv != 0.0 ? 0.0 : 1.0);
  }
  (void)src;
  return w;
}

// Whether every pixel's channels share one weight (then up to three channels share a weight channel).
// Packed rows of E: the view's pixels a run of channels apart.
template <class E>
bool packed_rows(const View& v) {
  return v.stride[0] == static_cast<std::ptrdiff_t>(v.channels * sizeof(E));
}

// A packed float image whose channels all hold NaN or none does, pixel by pixel (threaded).
template <class E>
bool nan_shared_fast(const View& src, int threads) {
  const int C = src.channels;
  const std::int64_t W = src.width();
  int mixed = 0;
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads) reduction(| : mixed)
  for (std::int64_t z = 0; z < src.depth(); ++z)
    for (std::int64_t y = 0; y < src.height(); ++y) {
      const E* row = reinterpret_cast<const E*>(src.pixel(0, y, z));
      int m = 0;
      for (std::int64_t x = 0; x < W; ++x) {
        const bool n0 = std::isnan(row[x * C]);
        for (int c = 1; c < C; ++c) m |= (std::isnan(row[x * C + c]) != n0);
      }
      mixed |= m;
    }
  return mixed == 0;
}

bool weights_shared(const View& src, const MissingData& m, int threads) {
  if (src.channels == 1) return true;
  if (!m.omit_nan && (!m.mask.data || m.mask.channels == 1)) return true;
  if (!m.mask.data && src.type == ElementType::f32 && packed_rows<float>(src)) return nan_shared_fast<float>(src, threads);
  if (!m.mask.data && src.type == ElementType::f64 && packed_rows<double>(src)) return nan_shared_fast<double>(src, threads);
  bool shared = true;
  with_element(src.type, [&](auto src_tag) {
    using S = decltype(src_tag);
    const std::size_t se = element_size(src.type);
    for (std::int64_t z = 0; z < src.depth() && shared; ++z)
      for (std::int64_t y = 0; y < src.height() && shared; ++y)
        for (std::int64_t x = 0; x < src.width() && shared; ++x) {
          const std::byte* p = src.pixel(x, y, z);
          const double w0 = weight_of(src, m, x, y, z, 0, load_as<S>(src.type, p));
          for (int c = 1; c < src.channels; ++c)
            if (weight_of(src, m, x, y, z, c, load_as<S>(src.type, p + c * se)) != w0) shared = false;
        }
  });
  return shared;
}

std::vector<Group> groups_of(const View& src, const MissingData& m, int threads) {
  std::vector<Group> groups;
  if (m.alpha) {
    Group g;
    for (int c = 0; c + 1 < src.channels; ++c) g.channels.push_back(c);
    return {g};
  }
  if (weights_shared(src, m, threads)) {
    for (int c0 = 0; c0 < src.channels; c0 += 3) {
      Group g;
      for (int c = c0; c < std::min(src.channels, c0 + 3); ++c) g.channels.push_back(c);
      groups.push_back(g);
    }
  } else {
    for (int c = 0; c < src.channels; ++c) groups.push_back(Group{{c}});
  }
  return groups;
}

// Whether a group of k channels takes the plain loops (which the compiler and Highway vectorise):
// packed data of the work's type T in and out, every channel in the group, NaN the only weights.
template <class T>
bool nan_only_packed(const View& src, const View& dst, const MissingData& m, bool shifted, int k) {
  constexpr ElementType wt = sizeof(T) == 8 ? ElementType::f64 : ElementType::f32;
  return !m.mask.data && !m.alpha && !shifted && k == src.channels && src.type == wt && dst.type == wt &&
         packed_rows<T>(src) && packed_rows<T>(dst);
}

// One group's normalized convolution: rows of the source packed into a float work image of weighted
// values and their weight, the work image blurred, its rows divided back into the destination. Where
// the work image's plan is fir on fused rows or downsample's chain (2D, float, on the CPU), the rows
// are packed as the blur reads them and divided as it writes them, so no work image goes to memory and back
// (that was 11-12 of 19-20 ms of a 1080p RGB omit at sigma 2, 2 threads).
template <class T>
void run_group(const View& src, const View& dst, const BlurSpec& spec, const MissingData& m, const Group& g,
               const Device* device, bool shifted, int threads, std::atomic<bool>* mixed = nullptr) {
  const int k = static_cast<int>(g.channels.size());
  const int wc = k + 1;  // work channels: k weighted values, then the weight
  const std::int64_t width = src.width(), H = src.height(), D = src.depth();
  const ElementType wt = sizeof(T) == 8 ? ElementType::f64 : ElementType::f32;
  const double c0 = shifted ? spec.cval : 0.0;  // a constant border with cval present: values about cval
  const std::size_t se = element_size(src.type), de = element_size(dst.type);
  const double a_scale = alpha_scale(src.type);
  const int alpha_c = src.channels - 1;
  const bool has_mask = m.mask.data != nullptr;
  const bool fast = nan_only_packed<T>(src, dst, m, shifted, k);
  // Source rows [y0, y1) of plane z into `work` (packed rows of width x wc).
  const auto pack_rows = [&](std::int64_t z, std::int64_t y0, std::int64_t y1, T* work) {
    if (fast) {
      for (std::int64_t y = y0; y < y1; ++y) {
        const T* in = reinterpret_cast<const T*>(src.pixel(0, y, z));
        T* out = work + (y - y0) * width * wc;
        if (cpu::pack_nan_row(in, out, width, k, m.omit_nan) && mixed) mixed->store(true);
      }
      return;
    }
    with_element(src.type, [&](auto src_tag) {
      using S = decltype(src_tag);
      with_element(has_mask ? m.mask.type : ElementType::u8, [&](auto mask_tag) {
        using M = decltype(mask_tag);
        for (std::int64_t y = y0; y < y1; ++y) {
          T* row = work + (y - y0) * width * wc;
          for (std::int64_t x = 0; x < width; ++x) {
            const std::byte* p = src.pixel(x, y, z);
            double w;
            if (m.alpha) {
              w = load_as<S>(src.type, p + alpha_c * se) / a_scale;
            } else {
              w = 1.0;
              if (m.omit_nan && std::isnan(load_as<S>(src.type, p + g.channels[0] * se))) w = 0.0;
              if (has_mask) w *= mask_weight<M>(m, x, y, z, g.channels[0]);
            }
            T* out = row + x * wc;
            for (int i = 0; i < k; ++i) {
              const double v = load_as<S>(src.type, p + g.channels[static_cast<std::size_t>(i)] * se);
              out[i] = w == 0.0 ? T(0) : static_cast<T>((v - c0) * w);
            }
            out[k] = static_cast<T>(shifted ? w - 1.0 : w);
          }
        }
      });
    });
  };
  // 4 epsilons of the work type: below it a pixel's weight is rounding, not a sample.
  const double floor = 4.0 * (sizeof(T) == 8 ? 2.220446049250313e-16 : 1.1920929e-7);
  const bool float_out = is_float(dst.type);
  const double empty = float_out ? m.empty_value : (std::isnan(m.empty_value) ? spec.cval : m.empty_value);
  // Whether the destination's rows are streamed past the caches: the row drivers' plan says so.
  bool stream = false;
  // divide() writes destination row y of plane z (the plain loops' rows); with preserve_nan, NaN
  // again where the source row had NaN - in place, the row copied first (the division writes over it).
  const bool in_place = core::views_overlap(src, dst);
  const auto divide_preserving = [&](std::int64_t z, std::int64_t y, const auto& divide) {
    if (!m.preserve_nan) return divide();
    thread_local std::vector<T> copy;
    const T* orig = reinterpret_cast<const T*>(src.pixel(0, y, z));
    if (in_place) copy.assign(orig, orig + width * k), orig = copy.data();
    divide();
    T* out = reinterpret_cast<T*>(dst.pixel(0, y, z));
    for (std::int64_t i = 0; i < width * k; ++i)
      if (std::isnan(orig[i])) out[i] = std::numeric_limits<T>::quiet_NaN();
  };
  // Blurred work rows (packed as pack_rows wrote them) divided into destination rows [y0, y1) of plane z.
  const auto divide_rows = [&](std::int64_t z, std::int64_t y0, std::int64_t y1, const T* work) {
    if (fast) {
      for (std::int64_t y = y0; y < y1; ++y)
        divide_preserving(z, y, [&] {
          cpu::divide_row(work + (y - y0) * width * wc, reinterpret_cast<T*>(dst.pixel(0, y, z)), width, k,
                          static_cast<T>(floor), static_cast<T>(empty), stream);
        });
      return;
    }
    with_element(src.type, [&](auto src_tag) {
      using S = decltype(src_tag);
      with_element(dst.type, [&](auto dst_tag) {
        using Dt = decltype(dst_tag);
        for (std::int64_t y = y0; y < y1; ++y) {
          const T* row = work + (y - y0) * width * wc;
          for (std::int64_t x = 0; x < width; ++x) {
            const T* in = row + x * wc;
            const double den = static_cast<double>(in[k]) + (shifted ? 1.0 : 0.0);
            std::byte* q = dst.pixel(x, y, z);
            const bool valid = den > floor;
            for (int i = 0; i < k; ++i) {
              const int c = g.channels[static_cast<std::size_t>(i)];
              double v;
              if (m.alpha) v = valid ? static_cast<double>(in[i]) / den : 0.0;
              else v = valid ? c0 + static_cast<double>(in[i]) / den : empty;
              if (m.preserve_nan && float_out && std::isnan(load_as<S>(src.type, src.pixel(x, y, z) + c * se)))
                v = std::numeric_limits<double>::quiet_NaN();
              store_as<Dt>(dst.type, q + c * de, v);
            }
            if (m.alpha) store_as<Dt>(dst.type, q + alpha_c * de, std::max(0.0, den) * a_scale);
          }
        }
      });
    });
  };
  BlurSpec s = spec;
  s.rounding = Rounding::nearest;  // SciPy's bits are not defined for it: the exact result, rounded once
  s.cval = 0.0;                    // missing outside (cval NaN), or values about cval with weights about 1
  const std::int64_t row_values = width * wc;
  // The row drivers: fir's and downsample's in float, SciPy's order (float64's exact driver) in double.
  // (Not in place: a band's rows are written while the next band still reads them as its halo.)
  if ((!device || device->is_cpu()) && D == 1 && !core::views_overlap(src, dst)) {
    const Plan p = make_plan(s, View::packed(static_cast<T*>(nullptr), wt, width, H, 1, wc));
    cpu::Rows<T> rows;
    rows.width = width;
    rows.height = H;
    rows.channels = wc;
    rows.read = [&](std::int64_t y, T* row) { pack_rows(0, y, y + 1, row); };
    rows.write = [&](std::int64_t y, const T* row) { divide_rows(0, y, y + 1, row); };
    stream = p.schedule.stream_destination && dst.type == wt && dst.is_packed();
    if constexpr (std::is_same_v<T, float>) {
      if (fast) {
        // The chain's tent summed from the source's rows where they lie, packed in registers (issue
        // 45: the pack into the chain's ring was a third of omit's sigma 30, 2.4-2.7 ms of 8.3).
        rows.sum_rows = [&](const std::int64_t* ys, const T* w, int count, T* out) {
          const T* in[16];
          for (int i = 0; i < count; ++i) in[i] = reinterpret_cast<const T*>(src.pixel(0, ys[i], 0));
          bool mixed_here = false;
          if (!cpu::weighted_packed_rows(in, w, count, out, width, k, m.omit_nan, mixed_here)) return false;
          if (mixed_here && mixed) mixed->store(true);
          return true;
        };
        // The chain's last lerp divided as it is computed: its row is never written (issue 45: a
        // write and a read of an RGBW row per output row, ~0.3 of omit's excess at sigma 30).
        rows.write_lerp = [&](std::int64_t y, const T* a, const T* b, T wa, T wb) {
          divide_preserving(0, y, [&] {
            cpu::divide_lerp_row(a, b, wa, wb, reinterpret_cast<T*>(dst.pixel(0, y, 0)), width, k, static_cast<T>(floor),
                                 static_cast<T>(empty), stream);
          });
          return true;
        };
      }
      if (cpu::fir_rows_available(p)) return cpu::fir_rows_blur(p, rows);
      if (cpu::chain_rows_available(p)) return cpu::downsample_chain_rows(p, rows);
    } else {
      if (cpu::scipy_rows_available(p)) return cpu::scipy_order_rows_blur(p, rows);
    }
  }
  // Kept by the calling thread from call to call: a fresh 33 MB image paid its page faults on every
  // call (two threads faulting at once: 13% of a 1080p RGB call in clear_page alone).
  thread_local cpu::RetainedBuffer retained;
  T* work = reinterpret_cast<T*>(retained.reserve(static_cast<std::size_t>(row_values * H * D) * sizeof(T), "the weighted image"));
  const View wv = View::packed(work, wt, width, H, D, wc);
  // float64 work on the CPU (SciPy's order in double) is blurred into a second image: in place its
  // first axis's pass buffers whole lines instead of summing a ring of rows (1080p, 2 channels,
  // sigma 30: 77.6 ms in place, 53.7 apart). float32 work's drivers lose nothing in place.
  thread_local cpu::RetainedBuffer retained_blurred;
  const bool apart = std::is_same_v<T, double> && (!device || device->is_cpu());
  T* blurred = apart ? reinterpret_cast<T*>(retained_blurred.reserve(static_cast<std::size_t>(row_values * H * D) * sizeof(T),
                                                                     "the blurred weighted image"))
                     : work;
  const View bv = View::packed(blurred, wt, width, H, D, wc);
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads)
  for (std::int64_t z = 0; z < D; ++z)
    for (std::int64_t y = 0; y < H; ++y) pack_rows(z, y, y + 1, work + (z * H + y) * row_values);
  if (device) blur(wv, bv, s, *device);
  else blur(wv, bv, s);
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads)
  for (std::int64_t z = 0; z < D; ++z)
    for (std::int64_t y = 0; y < H; ++y) divide_rows(z, y, y + 1, blurred + (z * H + y) * row_values);
}

void blur_missing(const View& src, const View& dst, const BlurSpec& spec, const MissingData& m, const Device* device) {
  check_request(src, dst, spec, m);
  check_mask_values(m.mask);
  if (!m.any()) {
    if (device) blur(src, dst, spec, *device);
    else blur(src, dst, spec);
    return;
  }
  // A constant border with a finite cval: outside is present, with value cval.
  bool shifted = false;
  for (int a = 0; a < 3; ++a)
    shifted = shifted || (spec.border[static_cast<std::size_t>(a)] == Border::constant && std::isfinite(spec.cval) &&
                          spec.sigma[static_cast<std::size_t>(a)] > kSigmaCutoff);
  if (m.alpha) shifted = false;  // cval 0: transparent outside
  const int threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  // Shifted weights (w - 1) cancel where few samples are valid: in float32 that cost 1e-4 next to a
  // hole (the 1 added back loses the weight's low bits), so a present cval works in float64.
  const bool wide = src.type == ElementType::f64 || dst.type == ElementType::f64 || shifted;
  // Each group reads its own channels of the source before it writes them (in place too); a source
  // that overlaps the destination otherwise is read from a copy.
  front_door::with_separate_source(src, dst, [&](const View& source) {
    const auto run = [&](const Group& g, std::atomic<bool>* mixed) {
      if (wide) run_group<double>(source, dst, spec, m, g, device, shifted, threads, mixed);
      else run_group<float>(source, dst, spec, m, g, device, shifted, threads, mixed);
    };
    // Packed float data of 2 or 3 channels with NaN the only weights, apart from dst: one group
    // sharing a weight, checked while it is packed instead of by a scan first (a read of the
    // whole source: 14% of a 1080p RGB call); where some pixel's channels disagree, each channel
    // again with its own weight (the source is intact, dst is written whole again).
    const int k = source.channels;
    const bool packed = wide ? nan_only_packed<double>(source, dst, m, shifted, k) : nan_only_packed<float>(source, dst, m, shifted, k);
    if (m.omit_nan && k > 1 && k <= 3 && packed && !core::views_overlap(source, dst)) {
      std::atomic<bool> mixed{false};
      Group all;
      for (int c = 0; c < source.channels; ++c) all.channels.push_back(c);
      run(all, &mixed);
      if (!mixed.load()) return;
      for (int c = 0; c < source.channels; ++c) run(Group{{c}}, nullptr);
      return;
    }
    for (const Group& g : groups_of(source, m, threads)) {
      run(g, nullptr);
    }
  });
}

}  // namespace

void missing::check_weights(ElementType data_type, int channels, bool has_mask, const BlurSpec& spec, const MissingData& m) {
  if (m.omit_nan && !is_float(data_type) && !has_mask)
    throw InvalidArgument("omitting NaN needs float data (" + std::string(to_string(data_type)) +
                          " has no NaN): give a mask for its missing values");
  if (m.alpha && channels < 2) throw InvalidArgument("an alpha blur needs an image with an alpha channel (2 channels or more)");
  if (m.alpha && m.omit_nan) throw InvalidArgument("alpha weights and NaN omission cannot combine: mask the NaNs instead");
  if (m.alpha && has_mask) throw InvalidArgument("alpha weights and a mask cannot combine");
  for (const Border b : spec.border)
    if (m.alpha && b == Border::constant && spec.cval != 0.0)
      throw InvalidArgument("an alpha blur with a constant border takes cval 0 (transparent outside)");
}

double alpha_scale(ElementType t) noexcept {
  switch (t) {
    case ElementType::u8: return 255.0;
    case ElementType::u16: return 65535.0;
    case ElementType::i8: return 127.0;
    case ElementType::i16: return 32767.0;
    case ElementType::u32: return 4294967295.0;
    case ElementType::i32: return 2147483647.0;
    default: return 1.0;
  }
}

void blur(const View& src, const View& dst, const BlurSpec& spec, const MissingData& missing) {
  blur_missing(src, dst, spec, missing, nullptr);
}

void blur(const View& src, const View& dst, const BlurSpec& spec, const MissingData& missing, const Device& device) {
  blur_missing(src, dst, spec, missing, &device);
}

}  // namespace fastblur
