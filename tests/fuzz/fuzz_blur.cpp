// Fuzzes fastblur::blur itself: fuzzed element types, shapes, channel counts, strides (padding,
// negative, transposed, zero), aliasing (separate, in place, overlapping), sigma, truncate, radius,
// borders, cval, every algorithm and its parameters, threads, and pixel data (NaN, Inf and
// denormals included) on small buffers. Besides the sanitizers it checks that
//  - nothing outside the destination's elements is written (guard bytes around and between them),
//  - an aliased or in-place blur gives exactly what the same blur gives between separate buffers,
//  - fir and fft agree with the double-precision reference, and fir puts NaN exactly where the
//    reference does,
//  - algorithms with non-negative weights stay within the range of the data and cval.
// Input format: tests/fuzz/blur_case.hpp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "blur_case.hpp"
#include "fastblur/kernel_dual_kawase.hpp"
#include "core/element.hpp"
#include "fastblur/fastblur.hpp"
#include "fastblur/reference.hpp"
#include "fuzz_support.hpp"

namespace fb = fastblur;

namespace {

constexpr fb::ElementType kTypes[] = {fb::ElementType::u8, fb::ElementType::u16, fb::ElementType::f16,
                                      fb::ElementType::f32, fb::ElementType::f64};
constexpr std::size_t kGuard = 64;
constexpr std::uint8_t kCanary = 0xA5;

[[noreturn]] void fail(const char* what, const std::string& detail = "") { fb::fuzz::fail("fuzz_blur", what, detail); }

// A view's layout over a buffer: strides from the layout bits, and the offset of its origin.
struct Layout {
  fb::View view;           // data is an offset from the buffer start until placed
  std::size_t footprint;   // bytes from the lowest to the highest byte touched, + 1 pixel
  std::ptrdiff_t origin;   // offset of pixel (0,0,0) from the footprint's start
};

Layout make_layout(fb::ElementType type, int channels, const std::array<std::int64_t, 3>& ext, std::uint8_t bits,
                   bool allow_zero_stride) {
  const std::ptrdiff_t es = static_cast<std::ptrdiff_t>(fb::element_size(type));
  const std::ptrdiff_t px = es * std::max(channels, 0) + (bits & 3);
  const std::ptrdiff_t pad_row = (bits & 4) ? 5 : 0;
  const int first = (bits & 64) ? 1 : 0, second = 1 - first;
  std::array<std::ptrdiff_t, 3> stride{};
  stride[static_cast<std::size_t>(first)] = px;
  stride[static_cast<std::size_t>(second)] = px * std::max<std::int64_t>(ext[static_cast<std::size_t>(first)], 1) + pad_row;
  stride[2] = stride[static_cast<std::size_t>(second)] * std::max<std::int64_t>(ext[static_cast<std::size_t>(second)], 1);
  if (allow_zero_stride && (bits & 128)) stride[0] = 0;
  std::ptrdiff_t lo = 0, hi = 0;
  for (int a = 0; a < 3; ++a) {
    if (bits & (8 << a)) stride[static_cast<std::size_t>(a)] = -stride[static_cast<std::size_t>(a)];
    const std::ptrdiff_t span = stride[static_cast<std::size_t>(a)] * (std::max<std::int64_t>(ext[static_cast<std::size_t>(a)], 1) - 1);
    (span < 0 ? lo : hi) += span;
  }
  Layout l;
  l.view.type = type;
  l.view.channels = channels;
  l.view.extent = ext;
  l.view.stride = stride;
  l.origin = -lo;
  l.footprint = static_cast<std::size_t>(hi - lo + px);
  return l;
}

// Marks the bytes of the view's elements (channels, not padding) in `mask` (indexed from `base`).
void mark_elements(const fb::View& v, const std::byte* base, std::vector<char>& mask) {
  const std::size_t bytes = fb::element_size(v.type) * static_cast<std::size_t>(v.channels);
  for (std::int64_t z = 0; z < v.depth(); ++z)
    for (std::int64_t y = 0; y < v.height(); ++y)
      for (std::int64_t x = 0; x < v.width(); ++x) {
        const std::ptrdiff_t at = v.pixel(x, y, z) - base;
        std::fill_n(mask.begin() + at, bytes, 1);
      }
}

double element(const fb::View& v, std::int64_t x, std::int64_t y, std::int64_t z, int c) {
  return fb::core::load_element(v.type, v.pixel(x, y, z) + c * fb::element_size(v.type));
}

bool same_value(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// The result of blurring between separate, packed buffers: what any aliasing must reproduce.
std::optional<std::vector<std::byte>> separate_result(const fb::View& src, fb::ElementType dst_type,
                                                      const fb::BlurSpec& spec) {
  std::vector<std::byte> in(static_cast<std::size_t>(src.pixel_count()) * src.channels * fb::element_size(src.type));
  std::vector<std::byte> out(static_cast<std::size_t>(src.pixel_count()) * src.channels * fb::element_size(dst_type));
  const fb::View a = fb::View::packed(in.data(), src.type, src.width(), src.height(), src.depth(), src.channels);
  const fb::View b = fb::View::packed(out.data(), dst_type, src.width(), src.height(), src.depth(), src.channels);
  for (std::int64_t z = 0; z < src.depth(); ++z)
    for (std::int64_t y = 0; y < src.height(); ++y)
      for (std::int64_t x = 0; x < src.width(); ++x)
        std::memcpy(a.pixel(x, y, z), src.pixel(x, y, z), fb::element_size(src.type) * src.channels);
  try {
    fb::blur(a, b, spec);
  } catch (const fb::Error&) {
    return std::nullopt;
  }
  return out;
}

// Every digit: denormals and last-bit differences must show.
std::string exact_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void compare_exact(const fb::View& got, const std::vector<std::byte>& want_bytes, const char* what) {
  const fb::View want = fb::View::packed(const_cast<std::byte*>(want_bytes.data()), got.type, got.width(), got.height(),
                                         got.depth(), got.channels);
  for (std::int64_t z = 0; z < got.depth(); ++z)
    for (std::int64_t y = 0; y < got.height(); ++y)
      for (std::int64_t x = 0; x < got.width(); ++x)
        for (int c = 0; c < got.channels; ++c)
          if (!same_value(element(got, x, y, z, c), element(want, x, y, z, c)))
            fail(what, "differs from the same blur between separate buffers at " + std::to_string(x) + "," +
                           std::to_string(y) + "," + std::to_string(z) + "," + std::to_string(c) + ": " +
                           exact_text(element(got, x, y, z, c)) + " vs " + exact_text(element(want, x, y, z, c)));
}

struct DataRange {
  double lo = INFINITY, hi = -INFINITY, maxabs = 0.0;
  bool has_nan = false, has_inf = false;
};
DataRange range_of(const fb::View& v, double cval) {
  DataRange r;
  const auto add = [&](double x) {
    if (std::isnan(x)) r.has_nan = true;
    else if (std::isinf(x)) r.has_inf = true;
    else {
      r.lo = std::min(r.lo, x);
      r.hi = std::max(r.hi, x);
      r.maxabs = std::max(r.maxabs, std::abs(x));
    }
  };
  for (std::int64_t z = 0; z < v.depth(); ++z)
    for (std::int64_t y = 0; y < v.height(); ++y)
      for (std::int64_t x = 0; x < v.width(); ++x)
        for (int c = 0; c < v.channels; ++c) add(element(v, x, y, z, c));
  add(cval);
  return r;
}

// The output type's own rounding of a value of magnitude m.
double rounding(fb::ElementType t, double m) {
  switch (t) {
    case fb::ElementType::u8:
    case fb::ElementType::u16: return 1.0;
    case fb::ElementType::f16: return m * 1e-3 + 1e-7;
    case fb::ElementType::f32: return m * 1e-6;
    case fb::ElementType::f64: return m * 1e-14;
  }
  return 0.0;
}

// fir and fft against the double reference; fir's NaN must sit exactly where the reference's does.
void check_against_reference(const fb::View& src, const fb::View& dst, const fb::BlurSpec& spec, const DataRange& r) {
  if (r.has_inf || r.maxabs > 1e30) return;  // float overflow and 0*Inf make the comparison meaningless
  std::vector<std::byte> ref_bytes(static_cast<std::size_t>(dst.pixel_count()) * dst.channels * fb::element_size(dst.type));
  const fb::View ref = fb::View::packed(ref_bytes.data(), dst.type, dst.width(), dst.height(), dst.depth(), dst.channels);
  fb::reference::separable_blur(src, ref, spec);
  // float accumulation of up to ~1000 taps (fft: double, but its cost is the same bound).
  const bool wide_work = dst.type != fb::ElementType::f64 && src.type != fb::ElementType::f64;
  const double accum = (wide_work ? 2e-5 : 1e-12) * r.maxabs + 1e-30;
  const double half_max = 65504.0;
  for (std::int64_t z = 0; z < dst.depth(); ++z)
    for (std::int64_t y = 0; y < dst.height(); ++y)
      for (std::int64_t x = 0; x < dst.width(); ++x)
        for (int c = 0; c < dst.channels; ++c) {
          const double g = element(dst, x, y, z, c), w = element(ref, x, y, z, c);
          const std::string where = std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + "," +
                                    std::to_string(c) + " got " + std::to_string(g) + " want " + std::to_string(w);
          if (std::isnan(w) || std::isnan(g)) {
            if (spec.algorithm == fb::Algorithm::fir && std::isnan(w) != std::isnan(g))
              fail("fir's NaN differs from the reference's at", where);
            continue;
          }
          if (r.has_nan) continue;  // fft spreads NaN over the whole line: nothing more to compare
          if (dst.type == fb::ElementType::f16 && (std::abs(w) > half_max * 0.99 || std::isinf(g))) continue;
          if (!(std::abs(g - w) <= accum + rounding(dst.type, std::abs(w))))
            fail("result differs from the double reference at", where);
        }
}

// Non-negative kernels average: every output lies within [min, max] of the data and cval.
void check_within_range(const fb::View& dst, const DataRange& r) {
  // Running sums of values near the type's maximum overflow (documented); so do float
  // intermediates of doubles beyond 3e38.
  if (r.has_nan || r.has_inf || !(r.lo <= r.hi) || r.maxabs > 1e30) return;
  const double slack = 1e-5 * (r.hi - r.lo) + 1e-6 * r.maxabs;
  for (std::int64_t z = 0; z < dst.depth(); ++z)
    for (std::int64_t y = 0; y < dst.height(); ++y)
      for (std::int64_t x = 0; x < dst.width(); ++x)
        for (int c = 0; c < dst.channels; ++c) {
          double lo = r.lo, hi = r.hi;
          if (fb::is_integer(dst.type)) {  // rounded and saturated
            const double top = dst.type == fb::ElementType::u8 ? 255.0 : 65535.0;
            lo = std::clamp(std::floor(lo), 0.0, top);
            hi = std::clamp(std::ceil(hi), 0.0, top);
          }
          const double g = element(dst, x, y, z, c);
          // Half floats end at 65504: beyond, a correct average is an infinity.
          if (dst.type == fb::ElementType::f16 && std::isinf(g) && (g > 0 ? hi : -lo) > 65504.0 * 0.999) continue;
          const double extra = rounding(dst.type, std::max(std::abs(lo), std::abs(hi)));
          if (!(g >= lo - slack - extra && g <= hi + slack + extra))
            fail("an averaging algorithm left the data's range:",
                 std::to_string(g) + " outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        }
}

// The parameters of the second format (blur_case.hpp): those kV2Keys names, in that order, each by
// its kind; a value the parameter refuses is left unset.
void decode_v2_parameters(fb::fuzz::ByteReader& in, fb::BlurSpec& spec, const fb::fuzz::RegistryView& registry) {
  for (std::string_view key : fb::fuzz::kV2Keys) {
    const fb::ParameterInfo& p = registry.parameter(key);
    fb::ParameterValue v;
    switch (p.kind) {
      case fb::ParameterInfo::Kind::integer:
        v = std::int64_t{in.integer(static_cast<std::int32_t>(std::min(p.max, 1e6)) + 2)};
        break;
      case fb::ParameterInfo::Kind::real: v = in.number(fb::fuzz::v2_scale(p.max)); break;
      case fb::ParameterInfo::Kind::flag: v = (in.u8() & 1) != 0; break;
      case fb::ParameterInfo::Kind::choice: {
        const std::size_t i = in.u8() % (p.choices.size() + 1);
        v = i < p.choices.size() ? std::string(p.choices[i]) : std::string("?");
        break;
      }
      case fb::ParameterInfo::Kind::real_list: {
        std::vector<double> list(in.u8() % (fb::fuzz::kV2MaxList + 1));
        for (double& d : list) d = in.number(fb::fuzz::v2_scale(p.max) > 4.0 ? 2.0 : fb::fuzz::v2_scale(p.max));
        v = std::move(list);
        break;
      }
    }
    try {
      fb::set_parameter(spec, p.key, v);
    } catch (const fb::InvalidArgument&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool v2 = size >= sizeof fb::fuzz::kV2Magic && std::memcmp(data, fb::fuzz::kV2Magic, sizeof fb::fuzz::kV2Magic) == 0;
  fb::fuzz::ByteReader in = v2 ? fb::fuzz::ByteReader({data + sizeof fb::fuzz::kV2Magic, size - sizeof fb::fuzz::kV2Magic})
                               : fb::fuzz::ByteReader({data, size});
  const fb::ElementType src_type = kTypes[in.u8() % 5];
  fb::ElementType dst_type = kTypes[in.u8() % 5];
  const std::uint8_t ch = in.u8();
  const int channels = ch >= 250 ? (ch == 250 ? 0 : ch - 246) : 1 + ch % 4;
  std::array<std::int64_t, 3> ext{};
  for (int a = 0; a < 3; ++a) {
    const std::uint8_t e = in.u8();
    ext[static_cast<std::size_t>(a)] = e == 255 ? 0 : 1 + e % (a == 2 ? 6 : 24);
  }
  const std::uint8_t src_bits = in.u8(), dst_bits = in.u8();
  const int aliasing = in.u8() % 4;

  fb::BlurSpec spec;
  for (int a = 0; a < 3; ++a) spec.sigma[static_cast<std::size_t>(a)] = in.number(24.0);
  if (in.u8() & 1) spec.truncate = in.number(8.0);
  for (int a = 0; a < 3; ++a) {
    const bool explicit_radius = in.u8() & 1;
    const std::int32_t r = in.integer(40);
    if (explicit_radius) spec.radius[static_cast<std::size_t>(a)] = r;
  }
  for (int a = 0; a < 3; ++a) spec.border[static_cast<std::size_t>(a)] = static_cast<fb::Border>(in.u8() % 5);
  spec.cval = in.number(512.0);
  // By name (blur_case.hpp): the registry's order means nothing to a stored input.
  static const fb::fuzz::RegistryView registry = fb::fuzz::RegistryView::of_library(std::getenv("FASTBLUR_FUZZ_FAKE_REGISTRY"));
  const std::uint8_t algorithm_byte = in.u8();
  const std::size_t v2_names = std::size(fb::fuzz::kV2AlgorithmNames);
  spec.algorithm = registry.algorithm(v2 ? fb::fuzz::kV2AlgorithmNames[algorithm_byte < v2_names ? algorithm_byte : 0]
                                         : fb::fuzz::kV1AlgorithmNames[algorithm_byte % fb::fuzz::kV1Algorithms]);
  spec.tolerance = in.number(0.5);
  // The first format's parameters, written as decoded (unchecked: what blur() itself refuses is fuzzed too).
  const std::int64_t box_passes = in.integer(8);
  const bool box_integer_widths = in.u8() & 1;
  const int offsets = in.u8() % 9;
  std::vector<double> kawase_offsets;
  for (int i = 0; i < offsets; ++i) kawase_offsets.push_back(in.number(12.0));
  const std::int64_t kawase_passes = in.integer(12), downsample_factor = in.integer(6);
  const char* const iir_variants[] = {"deriche", "young-van-vliet", "?"};
  const std::string iir_variant = iir_variants[in.u8() % 3];
  const std::int64_t sliding_dct_order = in.integer(10), dual_kawase_levels = in.integer(18);
  const double dual_kawase_offset = in.number(4.0);
  const std::int64_t mip_poisson_samples = in.integer(264), mip_poisson_frame = in.integer(1000);
  spec.options = {{"box_passes", box_passes},
                  {"box_integer_widths", box_integer_widths},
                  {"kawase_offsets", kawase_offsets},
                  {"kawase_passes", kawase_passes},
                  {"downsample_factor", downsample_factor},
                  {"iir_variant", iir_variant},
                  {"sliding_dct_order", sliding_dct_order},
                  {"dual_kawase_levels", dual_kawase_levels},
                  {"dual_kawase_offset", dual_kawase_offset},
                  {"mip_poisson_samples", mip_poisson_samples},
                  {"mip_poisson_frame", mip_poisson_frame}};
  for (int a = 0; a < 3; ++a) {
    const std::uint8_t o = in.u8();
    spec.order[static_cast<std::size_t>(a)] = o == 255 ? 65 : o % 4;
  }
  spec.threads = in.u8() % 3;
  if (v2) decode_v2_parameters(in, spec, registry);
  const auto pixels = in.rest();
  // The format carries every algorithm's parameters; the named algorithm takes its own (the core
  // refuses another's, tests/algorithms/registry_test.cpp), the automatic choice none.
  std::erase_if(spec.options, [&](const auto& option) { return !fb::parameter_applies(spec, option.first); });

  // Triage: FASTBLUR_FUZZ_VERBOSE=1 ./fuzz_blur INPUT prints the case an input decodes to, and the
  // options its algorithm takes.
  if (std::getenv("FASTBLUR_FUZZ_VERBOSE")) {
    std::string options;
    for (const auto& [key, value] : spec.options) {
      options += " " + key + "=";
      std::visit([&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) options += v;
        else if constexpr (std::is_same_v<T, std::vector<double>>) for (double d : v) options += std::to_string(d) + ",";
        else options += std::to_string(v);
      }, value);
    }
    std::fprintf(stderr, "options:%s\n", options.c_str());
    std::fprintf(stderr, "case: %s %dch %lldx%lldx%lld -> %s, sigma %g %g %g, border %d %d %d, algorithm %s, "
                 "tolerance %g, dual-kawase levels %d offset %g, threads %d\n",
                 std::string(fb::to_string(src_type)).c_str(), channels, static_cast<long long>(ext[0]),
                 static_cast<long long>(ext[1]), static_cast<long long>(ext[2]), std::string(fb::to_string(dst_type)).c_str(),
                 spec.sigma[0], spec.sigma[1], spec.sigma[2], static_cast<int>(spec.border[0]), static_cast<int>(spec.border[1]),
                 static_cast<int>(spec.border[2]), std::string(fb::to_string(spec.algorithm)).c_str(), spec.tolerance,
                 static_cast<int>(dual_kawase_levels), dual_kawase_offset, spec.threads);
  }

  // Huge but valid kernels cost what they cost (fir at sigma 1e6 sums 8 million taps per pixel;
  // mip-poisson pads by several sigma; kawase pads each line by the sum of its offsets and runs
  // every pass over it): past sigma 500, radius 2000, a Kawase offset of 2000 or 256 Kawase passes
  // only the validation runs, which must accept or refuse them without overflowing anything.
  bool huge = kawase_passes > 256;
  for (double d : kawase_offsets) huge |= d > 2000.0;
  for (int a = 0; a < 3; ++a) {
    const double sigma = spec.sigma[static_cast<std::size_t>(a)];
    const auto& r = spec.radius[static_cast<std::size_t>(a)];
    huge |= (std::isfinite(sigma) && sigma > 500.0) || (r && *r > 2000);
  }
  // dual-kawase with both its levels and its offset given ignores sigma: its own sigma decides.
  if (spec.algorithm == fb::Algorithm::dual_kawase && dual_kawase_levels >= 1 &&
      dual_kawase_levels <= fb::kernel::kDualKawaseMaxLevels && dual_kawase_offset > 0.0 &&
      dual_kawase_offset <= fb::kernel::kDualKawaseMaxOffset)
    huge |= fb::kernel::dual_kawase_variance(static_cast<int>(dual_kawase_levels), dual_kawase_offset) > 500.0 * 500.0;
  if (huge || !(spec.truncate <= 64.0)) {
    for (int a = 0; a < 3; ++a) {
      try {
        (void)fb::effective_radius(spec, a);
      } catch (const fb::InvalidArgument&) {
      }
    }
    return 0;
  }

  // Keep each run small: at most 4096 pixels.
  while (ext[0] * ext[1] * ext[2] > 4096) ext[2] = std::max<std::int64_t>(1, ext[2] / 2), ext[1] = std::max<std::int64_t>(1, ext[1] - 4);

  if (aliasing == 1) dst_type = src_type;  // in place: one view
  Layout src_l = make_layout(src_type, channels, ext, src_bits, true);
  Layout dst_l = aliasing == 1 ? src_l : make_layout(dst_type, channels, ext, dst_bits, false);
  const std::size_t shift = aliasing == 2 ? (src_bits ^ dst_bits) % 37 : 0;

  // One buffer for both views when they alias, else two; guard bytes on both sides.
  const std::size_t span = aliasing == 1 || aliasing == 2 ? std::max(src_l.footprint, dst_l.footprint + shift) : src_l.footprint;
  std::vector<std::byte> src_buf(span + 2 * kGuard);
  std::vector<std::byte> dst_buf(aliasing == 1 || aliasing == 2 ? 0 : dst_l.footprint + 2 * kGuard);
  for (std::size_t i = 0; i < src_buf.size(); ++i)
    src_buf[i] = pixels.empty() ? std::byte{0x3c} : static_cast<std::byte>(pixels[i % pixels.size()]);
  std::fill(dst_buf.begin(), dst_buf.end(), std::byte{kCanary});
  fb::View src = src_l.view;
  src.data = src_buf.data() + kGuard + src_l.origin;
  fb::View dst = dst_l.view;
  std::byte* dst_base = aliasing == 1 || aliasing == 2 ? src_buf.data() : dst_buf.data();
  dst.data = dst_base + kGuard + dst_l.origin + shift;
  if (aliasing == 1) dst = src;

  // Invalid requests must throw before touching anything; valid ones are compared below.
  const bool valid_shape = channels >= 1 && channels <= 4 && ext[0] >= 1 && ext[1] >= 1 && ext[2] >= 1;
  bool valid_destination = valid_shape;
  try {
    if (valid_shape) fb::validate_destination(dst);
  } catch (const fb::InvalidArgument&) {
    valid_destination = false;  // e.g. in place over a source with stride 0
  }
  std::optional<std::vector<std::byte>> expected;
  if (valid_destination && aliasing != 0 && aliasing != 3) expected = separate_result(src, dst.type, spec);
  const std::vector<std::byte> src_before = src_buf, dst_before = dst_buf;
  try {
    fb::blur(src, dst, spec);
  } catch (const fb::Error&) {
    if (src_buf != src_before || dst_buf != dst_before) {
      // Only OutOfMemory may come after writing began (blur.hpp's contract).
      try {
        throw;
      } catch (const fb::OutOfMemory&) {
      } catch (const fb::Error& e) {
        fail("a blur that threw wrote to memory first:", e.what());
      }
    }
    if (expected) {
      try {
        throw;
      } catch (const fb::Error& e) {
        fail("an aliased blur threw where the same blur between separate buffers did not:", e.what());
      }
    }
    return 0;
  }
  if (!valid_shape) fail("blur accepted an invalid shape");
  if (!valid_destination) fail("blur wrote to a destination whose pixels overlap");

  // Guards: the bytes that are not destination elements are as they were.
  std::vector<char> mask(dst_base == src_buf.data() ? src_buf.size() : dst_buf.size(), 0);
  mark_elements(dst, dst_base, mask);
  const std::vector<std::byte>& before = dst_base == src_buf.data() ? src_before : dst_before;
  const std::vector<std::byte>& after = dst_base == src_buf.data() ? src_buf : dst_buf;
  for (std::size_t i = 0; i < mask.size(); ++i)
    if (!mask[i] && after[i] != before[i]) fail("blur wrote outside the destination's elements at byte", std::to_string(i));
  if (dst_base != src_buf.data() && src_buf != src_before) fail("blur wrote to its source");

  if (expected) {
    compare_exact(dst, *expected, aliasing == 1 ? "in-place blur" : "overlapping blur");
    return 0;
  }
  // Separate buffers: compare with the reference where the algorithm is exact, with the data's
  // range where it averages.
  fb::BlurSpec planned = spec;
  if (spec.algorithm == fb::Algorithm::automatic) planned = fb::make_plan(spec, src).spec;
  const DataRange r = range_of(src, spec.cval);
  const bool derivative = fb::has_derivative(planned);
  switch (planned.algorithm) {
    case fb::Algorithm::fir:
    case fb::Algorithm::fft:
      if (!derivative) check_against_reference(src, dst, planned, r);
      break;
    case fb::Algorithm::box:
    case fb::Algorithm::kawase:
    case fb::Algorithm::downsample:
    case fb::Algorithm::dual_kawase:
    case fb::Algorithm::mip_poisson:
      check_within_range(dst, r);
      break;
    default:
      break;
  }
  return 0;
}
