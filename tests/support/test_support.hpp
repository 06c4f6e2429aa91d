#pragma once
// Shared test helpers: a seeded RNG (fresh each run, seed printed), typed random buffers with any
// layout, and tolerance rules for comparing against the double-precision reference.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "algorithms/descriptor.hpp"
#include "core/element.hpp"
#include "fastblur/fastblur.hpp"


// Built with AddressSanitizer or ThreadSanitizer (time and memory budgets differ there).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FASTBLUR_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define FASTBLUR_TEST_SANITIZED 1
#endif
#endif

namespace fastblur::test {

/// The run's seed: FASTBLUR_TEST_SEED if set, else drawn fresh. Printed once so a failure can be
/// replayed with FASTBLUR_TEST_SEED=<seed>.
inline std::uint64_t seed() {
  static const std::uint64_t s = [] {
    const char* env = std::getenv("FASTBLUR_TEST_SEED");
    const std::uint64_t v = env ? std::strtoull(env, nullptr, 10)
                                : (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
    std::printf("[ seed     ] FASTBLUR_TEST_SEED=%llu\n", static_cast<unsigned long long>(v));
    return v;
  }();
  return s;
}
/// A generator for one test, derived from the run's seed and the test's name.
inline std::mt19937_64 rng_for_test() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
  return std::mt19937_64(seed() ^ std::hash<std::string>{}(name));
}

/// FASTBLUR_TEST_SCALE: unset or "full" (README's release ctest) runs every test in full; "small"
/// (set by the asan and tsan test presets, CMakePresets.json) has the heaviest tests keep all their
/// awkward values - every size, border, element type, algorithm - but walk their grids as Latin
/// squares (grid_cell) and use smaller data where the size is not what is tested (scaled). Any
/// other value fails the run. Printed once when small.
/// This process's minor page faults so far (fresh pages touched): the tests that hold a driver to
/// keeping its buffers from one call to the next.
inline long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

inline bool small_scale() {
  static const bool small = [] {
    const char* env = std::getenv("FASTBLUR_TEST_SCALE");
    const std::string v = env ? env : "full";
    if (v != "full" && v != "small") {
      std::fprintf(stderr, "FASTBLUR_TEST_SCALE=%s: expected full or small\n", v.c_str());
      std::abort();
    }
    if (v == "small")
      std::printf("[ scale    ] FASTBLUR_TEST_SCALE=small: heavy tests walk their grids as Latin squares, on smaller data\n");
    return v == "small";
  }();
  return small;
}
/// `full` normally, `small` under FASTBLUR_TEST_SCALE=small.
template <class T>
inline T scaled(T full, T small) {
  return small_scale() ? small : full;
}
/// Whether cell (a, b, c) of a grid runs: every cell in full; under small scale the cells with
/// (a + b + c) % n == 0, 1/n of them. Each (a, b) pair then runs for one c in any n consecutive
/// values of c, and for each c every value of a and every value of b still runs (a and b taking at
/// least n values): exactly once each where both take n values, a Latin square (element types x
/// borders, n = 5, with c indexing the shapes, sigmas, ...).
inline bool grid_cell(int a, int b, int c, int n = 5) {
  return !small_scale() || (a + b + c) % n == 0;
}

/// The value range random data of a type is drawn from (and the scale of its tolerances).
inline double type_scale(ElementType t) {
  switch (t) {
    case ElementType::u8: return 255.0;
    case ElementType::u16: return 65535.0;
    case ElementType::i8: return 127.0;
    case ElementType::i16: return 32767.0;
    case ElementType::i32: case ElementType::u32: case ElementType::i64: case ElementType::u64: return 1e6;
    default: return 1.0;
  }
}

/// Owns bytes and a view over them. `pad_px` adds unused bytes after each pixel, `pad_row` after
/// each row; `flip_y` makes the y stride negative.
struct Buffer {
  std::vector<std::byte> bytes;
  View view;
};
inline Buffer make_buffer(ElementType t, std::int64_t w, std::int64_t h, std::int64_t d, int c,
                          int pad_px = 0, int pad_row = 0, bool flip_y = false) {
  Buffer b;
  const std::ptrdiff_t es = static_cast<std::ptrdiff_t>(element_size(t));
  const std::ptrdiff_t px = es * c + pad_px;
  const std::ptrdiff_t row = px * w + pad_row;
  const std::ptrdiff_t plane = row * h;
  b.bytes.resize(static_cast<std::size_t>(plane * d), std::byte{0});
  b.view.data = b.bytes.data();
  b.view.type = t;
  b.view.channels = c;
  b.view.extent = {w, h, d};
  b.view.stride = {px, row, plane};
  if (flip_y) {
    b.view.data = b.bytes.data() + row * (h - 1);
    b.view.stride[1] = -row;
  }
  return b;
}
inline double get(const View& v, std::int64_t x, std::int64_t y, std::int64_t z, int c) {
  return core::load_element(v.type, v.pixel(x, y, z) + c * element_size(v.type));
}
inline void set(const View& v, std::int64_t x, std::int64_t y, std::int64_t z, int c, double value) {
  core::store_element(v.type, v.pixel(x, y, z) + c * element_size(v.type), value);
}
inline void fill_random(const View& v, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double scale = type_scale(v.type);
  for (std::int64_t z = 0; z < v.depth(); ++z)
    for (std::int64_t y = 0; y < v.height(); ++y)
      for (std::int64_t x = 0; x < v.width(); ++x)
        for (int c = 0; c < v.channels; ++c) {
          double val = u(rng) * scale;
          if (!is_integer(v.type)) val = 2.0 * val - 0.5;  // negatives too
          set(v, x, y, z, c, val);
        }
}

/// The largest error allowed between a result of type `t` and the exact value `ref` (double):
/// the rounding of the output type plus float accumulation error relative to the data's scale.
/// `integer_bound`: how far an integer output may lie from the exact value - 0.5 where it is the
/// rounded result, 1.5 where it is within 1 of it (integer_bound_of).
inline double tolerance(ElementType t, double ref, int taps, double integer_bound = 0.5) {
  const double accum = 2e-7 * type_scale(t) * (4.0 + std::sqrt(static_cast<double>(taps)));
  if (is_integer(t)) return integer_bound + accum;  // rounded to nearest (or within 1 of it)
  switch (t) {
    case ElementType::u8:
    case ElementType::u16: return integer_bound + accum;  // rounded to nearest (or within 1 of it)
    case ElementType::f16: return std::ldexp(std::abs(ref), -10) + 1e-7 + accum;  // 1 half ulp
    case ElementType::f32: return 1e-6 * std::abs(ref) + accum;
    case ElementType::f64: return 1e-13;
  }
  return 0.0;
}

/// Largest |a - b| / tolerance over the views (<= 1 passes). `taps` sets the accumulation budget.
/// The integer bound a plan promises: within 1 of the rounded result for fir's fixed-point schedule
/// (8-bit images), the rounded result otherwise.
inline double integer_bound_of(const Plan& plan) {
  return plan.schedule.driver == CpuDriver::fixed_point ? 1.5 : 0.5;
}

inline double worst_ratio(const View& result, const View& exact, int taps, std::string* where = nullptr,
                          double integer_bound = 0.5) {
  double worst = 0.0;
  for (std::int64_t z = 0; z < result.depth(); ++z)
    for (std::int64_t y = 0; y < result.height(); ++y)
      for (std::int64_t x = 0; x < result.width(); ++x)
        for (int c = 0; c < result.channels; ++c) {
          double e = get(exact, x, y, z, c);
          if (is_integer(result.type)) e = std::clamp(e, 0.0, type_scale(result.type));  // saturation
          const double r = get(result, x, y, z, c);
          const double ratio = std::abs(r - e) / tolerance(result.type, e, taps, integer_bound);
          if (!(ratio <= worst)) {
            worst = std::isnan(ratio) ? INFINITY : ratio;
            if (where)
              *where = "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + "," +
                       std::to_string(c) + ") got " + std::to_string(r) + " want " + std::to_string(e);
          }
        }
  return worst;
}

inline const std::vector<Border>& all_borders() {
  static const std::vector<Border> b{Border::reflect, Border::mirror, Border::nearest, Border::wrap, Border::constant};
  return b;
}
inline const std::vector<ElementType>& all_types() {
  static const std::vector<ElementType> t{ElementType::u8, ElementType::u16, ElementType::f16, ElementType::f32,
                                          ElementType::f64};
  return t;
}


/// An algorithm parameter's value (get_parameter: the default where the spec does not set it) as its kind's type.
inline std::int64_t int_parameter(const BlurSpec& s, std::string_view key) { return std::get<std::int64_t>(get_parameter(s, key)); }
inline double real_parameter(const BlurSpec& s, std::string_view key) { return std::get<double>(get_parameter(s, key)); }
inline bool flag_parameter(const BlurSpec& s, std::string_view key) { return std::get<bool>(get_parameter(s, key)); }
inline std::string choice_parameter(const BlurSpec& s, std::string_view key) { return std::get<std::string>(get_parameter(s, key)); }
inline std::vector<double> list_parameter(const BlurSpec& s, std::string_view key) {
  return std::get<std::vector<double>>(get_parameter(s, key));
}
/// Writes a parameter without set_parameter's check: tests of what blur() and make_plan() refuse.
inline void set_unchecked(BlurSpec& s, const std::string& key, ParameterValue value) {
  algo::set_option(s, key, std::move(value));
}
/// iir's variant as the parameter names it.
inline std::string iir_name(IirVariant v) { return v == IirVariant::deriche ? "deriche" : "young-van-vliet"; }

}  // namespace fastblur::test
