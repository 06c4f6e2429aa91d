// Normalized convolution (fastblur/missing_data.hpp) through the front door: the source's values and
// their weights packed into a float image with the weights as its last channel, one blur of that
// image with the request's own spec (so its own plan, algorithm and device), then the weighted sums
// divided back into the destination.
#include "fastblur/missing_data.hpp"

#include <omp.h>

#include <cmath>
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/element.hpp"
#include "core/size.hpp"
#include "fastblur/error.hpp"
#include "front_door.hpp"

namespace fastblur {
namespace {

// A group of source channels blurred together with one weight channel: `channels` lists them (at most
// 3), the work image holds their weighted values then the weight.
struct Group {
  std::vector<int> channels;
};

bool is_float(ElementType t) { return t == ElementType::f16 || t == ElementType::f32 || t == ElementType::f64; }

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
  if (m.omit_nan && !is_float(src.type) && !m.mask.data)
    throw InvalidArgument("omitting NaN needs float data (" + std::string(to_string(src.type)) +
                          " has no NaN): give a mask for its missing values");
  if (m.alpha && src.channels < 2) throw InvalidArgument("an alpha blur needs an image with an alpha channel (2 channels or more)");
  if (m.alpha && m.omit_nan) throw InvalidArgument("alpha weights and NaN omission cannot combine: mask the NaNs instead");
  if (m.alpha && m.mask.data) throw InvalidArgument("alpha weights and a mask cannot combine");
  for (const Border b : spec.border)
    if (m.alpha && b == Border::constant && spec.cval != 0.0)
      throw InvalidArgument("an alpha blur with a constant border takes cval 0 (transparent outside)");
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
bool weights_shared(const View& src, const MissingData& m) {
  if (src.channels == 1) return true;
  if (!m.omit_nan && (!m.mask.data || m.mask.channels == 1)) return true;
  for (std::int64_t z = 0; z < src.depth(); ++z)
    for (std::int64_t y = 0; y < src.height(); ++y)
      for (std::int64_t x = 0; x < src.width(); ++x) {
        const double v0 = core::load_element(src.type, src.pixel(x, y, z));
        const double w0 = weight_of(src, m, x, y, z, 0, v0);
        for (int c = 1; c < src.channels; ++c) {
          const double v = core::load_element(src.type, src.pixel(x, y, z) + c * element_size(src.type));
          if (weight_of(src, m, x, y, z, c, v) != w0) return false;
        }
      }
  return true;
}

std::vector<Group> groups_of(const View& src, const MissingData& m) {
  std::vector<Group> groups;
  if (m.alpha) {
    Group g;
    for (int c = 0; c + 1 < src.channels; ++c) g.channels.push_back(c);
    return {g};
  }
  if (weights_shared(src, m)) {
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

// Integers' alpha as a fraction of their maximum.
double alpha_scale(ElementType t) {
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

template <class T>
void run_group(const View& src, const View& dst, const BlurSpec& spec, const MissingData& m, const Group& g,
               const Device* device, bool shifted, int threads) {
  const int k = static_cast<int>(g.channels.size());
  const int wc = k + 1;  // work channels: k weighted values, then the weight
  const std::int64_t width = src.width(), H = src.height(), D = src.depth();
  const ElementType wt = sizeof(T) == 8 ? ElementType::f64 : ElementType::f32;
  const std::size_t count = static_cast<std::size_t>(width * H * D * wc);
  core::UniqueBytes bytes = core::allocate_bytes(count * sizeof(T), "the weighted image");
  T* work = reinterpret_cast<T*>(bytes.get());
  const View wv = View::packed(work, wt, width, H, D, wc);
  const double c0 = shifted ? spec.cval : 0.0;  // a constant border with cval present: values about cval
  const std::size_t se = element_size(src.type), de = element_size(dst.type);
  const double a_scale = alpha_scale(src.type);
  const int alpha_c = src.channels - 1;
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads)
  for (std::int64_t z = 0; z < D; ++z)
    for (std::int64_t y = 0; y < H; ++y) {
      T* row = work + ((z * H + y) * width) * wc;
      for (std::int64_t x = 0; x < width; ++x) {
        const std::byte* p = src.pixel(x, y, z);
        double w;
        if (m.alpha) {
          w = core::load_element(src.type, p + alpha_c * se) / a_scale;
        } else {
          const double v0 = core::load_element(src.type, p + g.channels[0] * se);
          w = weight_of(src, m, x, y, z, g.channels[0], v0);
        }
        T* out = row + x * wc;
        for (int i = 0; i < k; ++i) {
          const double v = core::load_element(src.type, p + g.channels[static_cast<std::size_t>(i)] * se);
          out[i] = w == 0.0 ? T(0) : static_cast<T>((v - c0) * w);
        }
        out[k] = static_cast<T>(shifted ? w - 1.0 : w);
      }
    }
  BlurSpec s = spec;
  s.rounding = Rounding::nearest;  // SciPy's bits are not defined for it: the exact result, rounded once
  s.cval = 0.0;                    // missing outside (cval NaN), or values about cval with weights about 1
  if (device) blur(wv, wv, s, *device);
  else blur(wv, wv, s);
  // 4 epsilons of the work type: below it a pixel's weight is rounding, not a sample.
  const double floor = 4.0 * (sizeof(T) == 8 ? 2.220446049250313e-16 : 1.1920929e-7);
  const bool float_out = is_float(dst.type);
  const double empty = float_out ? m.empty_value : (std::isnan(m.empty_value) ? spec.cval : m.empty_value);
#pragma omp parallel for collapse(2) schedule(static) num_threads(threads)
  for (std::int64_t z = 0; z < D; ++z)
    for (std::int64_t y = 0; y < H; ++y) {
      const T* row = work + ((z * H + y) * width) * wc;
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
          if (m.preserve_nan && float_out && std::isnan(core::load_element(src.type, src.pixel(x, y, z) + c * se)))
            v = std::numeric_limits<double>::quiet_NaN();
          core::store_element(dst.type, q + c * de, v);
        }
        if (m.alpha) core::store_element(dst.type, q + alpha_c * de, std::max(0.0, den) * a_scale);
      }
    }
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
                          spec.sigma[static_cast<std::size_t>(a)] > 1e-15);
  if (m.alpha) shifted = false;  // cval 0: transparent outside
  const int threads = spec.threads > 0 ? spec.threads : omp_get_max_threads();
  // Shifted weights (w - 1) cancel where few samples are valid: in float32 that cost 1e-4 next to a
  // hole (the 1 added back loses the weight's low bits), so a present cval works in float64.
  const bool wide = src.type == ElementType::f64 || dst.type == ElementType::f64 || shifted;
  // Each group reads its own channels of the source before it writes them (in place too); a source
  // that overlaps the destination otherwise is read from a copy.
  front_door::with_separate_source(src, dst, [&](const View& source) {
    for (const Group& g : groups_of(source, m)) {
      if (wide) run_group<double>(source, dst, spec, m, g, device, shifted, threads);
      else run_group<float>(source, dst, spec, m, g, device, shifted, threads);
    }
  });
}

}  // namespace

void blur(const View& src, const View& dst, const BlurSpec& spec, const MissingData& missing) {
  blur_missing(src, dst, spec, missing, nullptr);
}

void blur(const View& src, const View& dst, const BlurSpec& spec, const MissingData& missing, const Device& device) {
  blur_missing(src, dst, spec, missing, &device);
}

}  // namespace fastblur
