// CpuDriver::scipy_order (Rounding::scipy): bit-identical to a scalar loop of scipy.ndimage's own
// arithmetic on every element type, border, axis order, 2D and 3D, with channels, in place and not;
// the planner gives it to exact CPU requests only; NumPy's other element types run on every driver.
#include <gtest/gtest.h>

#include <functional>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/border.hpp"
#include "core/cache_size.hpp"
#include "core/threads.hpp"
#include "core/element.hpp"
#include "cpu/execute.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/plan.hpp"
#include "kernel/sums_in_range.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

const std::vector<ElementType> kEveryType{ElementType::b8,  ElementType::i8,  ElementType::u8,  ElementType::i16,
                                          ElementType::u16, ElementType::i32, ElementType::u32, ElementType::i64,
                                          ElementType::u64, ElementType::f16, ElementType::f32, ElementType::f64};

// SciPy reads bool as the byte it is, and stores through C's conversion to the type.
double scipy_load(ElementType t, const std::byte* p) {
  return t == ElementType::b8 ? static_cast<double>(std::to_integer<unsigned>(*p)) : core::load_element(t, p);
}
void scipy_store(ElementType t, std::byte* p, double v) {
  const auto put = [p](auto x) { std::memcpy(p, &x, sizeof x); };
  switch (t) {
    case ElementType::b8: case ElementType::u8: put(core::c_convert<std::uint8_t>(v)); break;
    case ElementType::i8: put(core::c_convert<std::int8_t>(v)); break;
    case ElementType::i16: put(core::c_convert<std::int16_t>(v)); break;
    case ElementType::u16: put(core::c_convert<std::uint16_t>(v)); break;
    case ElementType::i32: put(core::c_convert<std::int32_t>(v)); break;
    case ElementType::u32: put(core::c_convert<std::uint32_t>(v)); break;
    case ElementType::i64: put(core::c_convert<std::int64_t>(v)); break;
    case ElementType::u64: put(core::c_convert<std::uint64_t>(v)); break;
    case ElementType::f16: core::store_element(t, p, v); break;
    case ElementType::f32: put(static_cast<float>(v)); break;
    case ElementType::f64: put(v); break;
  }
}

// scipy.ndimage.correlate1d's loop (ni_filters.c), one output at a time.
double scipy_sum(const std::vector<double>& line, std::size_t i, const std::vector<double>& w) {
  const int size1 = static_cast<int>(w.size() / 2), size2 = static_cast<int>(w.size()) - size1 - 1;
  const double* fw = w.data() + size1;
  const double* in = line.data() + i;
  bool sym = w.size() % 2 == 1, anti = sym;
  for (int k = 1; k <= size1; ++k) {
    sym = sym && std::fabs(fw[k] - fw[-k]) <= DBL_EPSILON;
    anti = anti && std::fabs(fw[k] + fw[-k]) <= DBL_EPSILON;
  }
  double tmp;
  if (sym || anti) {
    tmp = in[0] * fw[0];
    for (int j = -size1; j < 0; ++j) tmp += (sym ? in[j] + in[-j] : in[j] - in[-j]) * fw[j];
  } else {
    tmp = in[size2] * fw[size2];
    for (int j = -size1; j < size2; ++j) tmp += in[j] * fw[j];
  }
  return tmp;
}

// The whole of gaussian_filter as SciPy runs it: axis after axis in spec.axis_order, each read from
// the previous output, every value converted to dst's type.
void scipy_reference(const View& src, const View& dst, const BlurSpec& spec) {
  const std::size_t se = element_size(src.type), de = element_size(dst.type);
  const auto at = [](const View& v, std::size_t es, std::array<std::int64_t, 3> p, int c) {
    return v.pixel(p[0], p[1], p[2]) + static_cast<std::size_t>(c) * es;
  };
  bool first = true;
  for (int axis : spec.axis_order) {
    const auto a = static_cast<std::size_t>(axis);
    if (!(spec.sigma[a] > 1e-15)) continue;
    const int r = effective_radius(spec, axis);
    std::vector<double> w = spec.weights[a];
    if (w.empty()) {
      w = kernel::gaussian_derivative_weights(spec.sigma[a], spec.order[a], r);
      std::reverse(w.begin(), w.end());
    }
    const View& from = first ? src : dst;
    const std::size_t fe = first ? se : de;
    const std::int64_t n = src.extent[a];
    std::vector<double> line(static_cast<std::size_t>(n + 2 * r));
    std::array<std::int64_t, 3> p{};
    const std::array<std::int64_t, 3> e = src.extent;
    for (p[2] = 0; p[2] < (a == 2 ? 1 : e[2]); ++p[2])
      for (p[1] = 0; p[1] < (a == 1 ? 1 : e[1]); ++p[1])
        for (p[0] = 0; p[0] < (a == 0 ? 1 : e[0]); ++p[0])
          for (int c = 0; c < src.channels; ++c) {
            std::array<std::int64_t, 3> q = p;
            for (std::int64_t i = -r; i < n + r; ++i) {
              const std::int64_t m = core::border_index(i, n, spec.border[a]);
              double v = spec.cval;
              if (m >= 0) {
                q[a] = m;
                v = scipy_load(from.type, at(from, fe, q, c));
              }
              line[static_cast<std::size_t>(i + r)] = v;
            }
            for (std::int64_t i = 0; i < n; ++i) {
              q[a] = i;
              scipy_store(dst.type, at(dst, de, q, c), scipy_sum(line, static_cast<std::size_t>(i + r), w));
            }
          }
    first = false;
  }
}

void fill(const View& v, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-300.0, 300.0);
  const bool signed_type = v.type == ElementType::i8 || v.type == ElementType::i16 || v.type == ElementType::i32 ||
                           v.type == ElementType::i64;
  for (std::int64_t z = 0; z < v.depth(); ++z)
    for (std::int64_t y = 0; y < v.height(); ++y)
      for (std::int64_t x = 0; x < v.width(); ++x)
        for (int c = 0; c < v.channels; ++c) {
          std::byte* p = v.pixel(x, y, z) + static_cast<std::size_t>(c) * element_size(v.type);
          if (v.type == ElementType::b8) *p = std::byte(rng() & 1);
          else if (is_integer(v.type)) scipy_store(v.type, p, std::floor(signed_type ? u(rng) : std::abs(u(rng))));
          else core::store_element(v.type, p, u(rng) / 7.0);
        }
}

bool same_bytes(const View& a, const View& b, std::string* where) {
  const std::size_t es = element_size(a.type) * static_cast<std::size_t>(a.channels);
  for (std::int64_t z = 0; z < a.depth(); ++z)
    for (std::int64_t y = 0; y < a.height(); ++y)
      for (std::int64_t x = 0; x < a.width(); ++x)
        if (std::memcmp(a.pixel(x, y, z), b.pixel(x, y, z), es) != 0) {
          *where = std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z);
          return false;
        }
  return true;
}

// `plan` (a schedule of spec's SciPy-order blur) gives SciPy's bits on src, then again in place;
// `ran` says whether the blur ran the schedule under test (last_run()).
void expect_scipys_bits(const View& src, const BlurSpec& spec, const Plan& plan,
                        const std::function<bool(const Schedule&)>& ran, const std::string& what) {
  auto got = test::make_buffer(src.type, src.width(), src.height(), src.depth(), src.channels);
  auto want = test::make_buffer(src.type, src.width(), src.height(), src.depth(), src.channels);
  scipy_reference(src, want.view, spec);
  blur(src, got.view, plan);
  ASSERT_TRUE(ran(last_run()->schedule)) << what;
  std::string where;
  EXPECT_TRUE(same_bytes(got.view, want.view, &where)) << what << " at " << where;
  blur(src, src, plan);  // in place
  EXPECT_TRUE(same_bytes(src, want.view, &where)) << "in place " << what << " at " << where;
}

TEST(ScipyOrder, IsScipysArithmeticOnEveryTypeBorderAndAxisOrder) {
  auto rng = test::rng_for_test();
  struct Case { std::int64_t w, h, d; int c; double sx, sy, sz; std::array<int, 3> order; };
  const Case cases[] = {{37, 23, 1, 1, 1.7, 2.3, 0, {2, 1, 0}}, {70, 5, 1, 3, 0.9, 4.0, 0, {0, 1, 2}},
                        {9, 11, 7, 2, 1.2, 0.7, 1.9, {2, 1, 0}}, {5, 1, 6, 1, 3.5, 1.0, 0.8, {1, 2, 0}},
                        {130, 40, 1, 4, 2.6, 1.4, 0, {1, 0, 2}}};
  int checked = 0;
  for (std::size_t ti = 0; ti < kEveryType.size(); ++ti)
    for (std::size_t bi = 0; bi < test::all_borders().size(); ++bi)
      for (std::size_t ci = 0; ci < std::size(cases); ++ci) {
        if (test::small_scale() && !test::grid_cell(static_cast<int>(ti), static_cast<int>(bi), static_cast<int>(ci))) continue;
        const Case& cs = cases[ci];
        const ElementType in = kEveryType[ti];
        const ElementType out = kEveryType[(ti + ci) % kEveryType.size()];  // and conversions between types
        BlurSpec spec;
        spec.sigma = {cs.sx, cs.sy, cs.sz};
        spec.with_border(test::all_borders()[bi]);
        spec.cval = 2.5;
        spec.rounding = Rounding::scipy;
        spec.axis_order = cs.order;
        spec.algorithm = (rng() & 1) ? Algorithm::fir : Algorithm::automatic;
        if (ci == 3) spec.order = {1, 0, 2};
        if (ci == 4) {  // the caller's weights, not symmetric
          spec.radius[1] = 2;
          spec.weights[1] = {0.1, 0.5, 0.25, -0.3, 0.45};
        }
        auto src = test::make_buffer(in, cs.w, cs.h, cs.d, cs.c, 0, ci == 1 ? 8 : 0);
        fill(src.view, rng);
        auto got = test::make_buffer(out, cs.w, cs.h, cs.d, cs.c);
        auto want = test::make_buffer(out, cs.w, cs.h, cs.d, cs.c);
        const Plan plan = make_plan(spec, src.view, out, Backend::cpu);
        ASSERT_EQ(plan.schedule.driver, CpuDriver::scipy_order);
        blur(src.view, got.view, spec);
        ASSERT_EQ(last_run()->schedule.driver, CpuDriver::scipy_order);
        scipy_reference(src.view, want.view, spec);
        std::string where;
        EXPECT_TRUE(same_bytes(got.view, want.view, &where))
            << to_string(in) << " -> " << to_string(out) << " " << to_string(spec.border[0]) << " case " << ci << " at " << where;
        if (in == out) {  // in place: the same bits
          blur(src.view, src.view, spec);
          EXPECT_TRUE(same_bytes(src.view, want.view, &where)) << "in place " << to_string(in) << " case " << ci << " at " << where;
        }
        ++checked;
      }
  EXPECT_GT(checked, 40);
}

// Short lines along x (an RGB image's channel axis under one sigma: x of 2-5 values, pixels along
// y) are summed across pixels, a block of them at a time: SciPy's bits on every type and border,
// kernels longer than the line, blocks that end mid-vector, packed and padded rows, in place.
TEST(ScipyOrder, ShortLinesAcrossPixelsGiveThePassesBits) {
  auto rng = test::rng_for_test();
  int checked = 0;
  for (std::size_t ti = 0; ti < kEveryType.size(); ++ti)
    for (std::size_t bi = 0; bi < test::all_borders().size(); ++bi)
      for (std::int64_t n = 2; n <= 5; ++n) {
        if (!test::grid_cell(static_cast<int>(ti), static_cast<int>(bi), static_cast<int>(n))) continue;
        const ElementType t = kEveryType[ti];
        BlurSpec spec;
        spec.sigma = {n == 4 ? 0.6 : 1.0 + 0.7 * static_cast<double>(n), 1.3, n == 5 ? 0.0 : 0.8};
        spec.with_border(test::all_borders()[bi]);
        spec.cval = 3.25;
        spec.rounding = Rounding::scipy;
        spec.axis_order = {2, 1, 0};  // x last, as SciPy's order for an (h, w, channels) array
        const bool padded = n == 3 && (bi % 2 == 1);
        auto src = test::make_buffer(t, n, 600 + n, 3, 1, n == 4 ? 2 : 0, padded ? 8 : 0);
        fill(src.view, rng);
        // Every third line one level (grey pixels): its exact sums are integers, which the certified
        // sums of unsigned lines leave to SciPy's own.
        const std::size_t es = element_size(t);
        for (std::int64_t z = 0; z < 3; ++z)
          for (std::int64_t y = 0; y < src.view.height(); y += 3)
            for (std::int64_t x = 1; x < n; ++x) std::memcpy(src.view.pixel(x, y, z), src.view.pixel(0, y, z), es);
        auto got = test::make_buffer(t, n, 600 + n, 3, 1);
        auto want = test::make_buffer(t, n, 600 + n, 3, 1);
        const Plan plan = make_plan(spec, src.view, t, Backend::cpu);
        ASSERT_TRUE(plan.schedule.x_across_rows);
        scipy_reference(src.view, want.view, spec);
        blur(src.view, got.view, plan);
        std::string where;
        EXPECT_TRUE(same_bytes(got.view, want.view, &where)) << to_string(t) << " n " << n << " " << to_string(spec.border[0]) << " at " << where;
        blur(src.view, src.view, plan);
        EXPECT_TRUE(same_bytes(src.view, want.view, &where)) << "in place " << to_string(t) << " n " << n << " at " << where;
        ++checked;
      }
  EXPECT_GT(checked, 40);
}

// An (h, w, 2-4) array under one sigma (SciPy's order: z, y, then x of 2-4 values) runs z and y as
// an image of x's pixels by the plan's own plan of that image (Schedule::pixels_image: its fused
// rows, its certified 8-bit sums), then x across the pixels in place: SciPy's bits on every type and
// border, both orders of z and y, channels beside x, in place; padded pixels take the passes.
TEST(ScipyOrder, PixelsImageGivesThePassesBits) {
  auto rng = test::rng_for_test();
  int checked = 0, imaged = 0;
  for (std::size_t ti = 0; ti < kEveryType.size(); ++ti)
    for (std::size_t bi = 0; bi < test::all_borders().size(); ++bi)
      for (int ci = 0; ci < 4; ++ci) {
        if (!test::grid_cell(static_cast<int>(ti), static_cast<int>(bi), ci)) continue;
        const ElementType t = kEveryType[ti];
        const std::int64_t x = ci == 2 ? 2 : 3 + (ci & 1);  // 3, 4, 2 (with 2 channels), 3 padded
        const int channels = ci == 2 ? 2 : 1;
        BlurSpec spec;
        spec.sigma = {1.5, ci == 1 ? 0.0 : 1.2, 2.1};
        spec.with_border(test::all_borders()[bi]);
        spec.cval = 1.75;
        spec.rounding = Rounding::scipy;
        spec.axis_order = ci == 1 ? std::array<int, 3>{1, 2, 0} : std::array<int, 3>{2, 1, 0};
        auto src = test::make_buffer(t, x, 61, 45, channels, ci == 3 ? 4 : 0);
        fill(src.view, rng);
        const Plan plan = make_plan(spec, src.view, t, Backend::cpu);
        ASSERT_TRUE(plan.schedule.pixels_image) << to_string(t) << " case " << ci;
        const Plan& image = *plan.schedule.pixels_image;
        EXPECT_EQ(image.extent, (std::array<std::int64_t, 3>{61, 45, 1}));
        EXPECT_EQ(image.channels, x * channels);
        expect_scipys_bits(src.view, spec, plan, [](const Schedule& s) { return s.pixels_image != nullptr; },
                           std::string(to_string(t)) + " " + std::string(to_string(spec.border[0])) + " case " + std::to_string(ci));
        ++checked, imaged += image.schedule.fused_axes;
      }
  EXPECT_GT(checked, 40);
  EXPECT_GT(imaged, 10);  // the image's rows fused where its types allow
}

// A 2D image filtered y then x runs both axes in one pass through a ring of rows
// (Schedule::fused_axes, cpu/scipy_order_rows.cpp): SciPy's bits still, for every type and border,
// bands of any count (more workers than rows too), kernels longer than the image, padded pixels,
// and in place - where a band reads rows its neighbours, or its own border, write first.
TEST(ScipyOrder, BothAxesInOnePassGiveThePassesBits) {
  auto rng = test::rng_for_test();
  struct Case { std::int64_t w, h; int c; double sx, sy; int threads; int pad_px; std::int64_t d = 1; double sz = 0.0; };
  // Rows of at least 32 values: shorter ones are filtered across rows (Schedule::x_across_rows).
  const Case cases[] = {{41, 29, 3, 1.3, 2.2, 2, 0}, {37, 6, 1, 2.0, 4.5, 7, 0},  // radius 18 on 6 rows, 7 bands
                        {64, 33, 4, 0.8, 1.0, 3, 1}, {17, 40, 2, 6.0, 0.6, 1, 0},
                        {33, 13, 1, 1.1, 0.9, 2, 0, 7, 1.7},  // a volume: z's pass, then each plane fused
                        {17, 11, 2, 0.7, 2.5, 3, 1, 4, 0.0}};  // planes alone: no z pass
  int checked = 0;
  for (std::size_t ti = 0; ti < kEveryType.size(); ++ti)
    for (std::size_t bi = 0; bi < test::all_borders().size(); ++bi)
      for (std::size_t ci = 0; ci < std::size(cases); ++ci) {
        if (test::small_scale() && !test::grid_cell(static_cast<int>(ti), static_cast<int>(bi), static_cast<int>(ci))) continue;
        const Case& cs = cases[ci];
        const ElementType t = kEveryType[ti];
        BlurSpec spec;
        spec.sigma = {cs.sx, cs.sy, cs.sz};
        spec.with_border(test::all_borders()[bi]);
        spec.cval = -1.5;
        spec.rounding = Rounding::scipy;
        spec.threads = cs.threads;
        auto src = test::make_buffer(t, cs.w, cs.h, cs.d, cs.c, cs.pad_px);
        fill(src.view, rng);
        const Plan plan = make_plan(spec, src.view, t, Backend::cpu);
        ASSERT_TRUE(plan.schedule.fused_axes) << describe(plan);
        ASSERT_NE(describe(plan).find("one pass through a ring of rows"), std::string::npos);
        expect_scipys_bits(src.view, spec, plan, [](const Schedule& s) { return s.fused_axes; },
                           std::string(to_string(t)) + " " + std::string(to_string(spec.border[0])) + " case " + std::to_string(ci));
        ++checked;
      }
  EXPECT_GT(checked, 30);
  // x first (SciPy's order for a transposed image), z after y, one axis: a pass per axis.
  std::vector<float> px(32 * 24 * 3);
  BlurSpec spec = BlurSpec::isotropic_2d(1.0);
  spec.rounding = Rounding::scipy;
  spec.axis_order = {0, 1, 2};
  EXPECT_FALSE(make_plan(spec, View::packed(px.data(), ElementType::f32, 32, 24), Backend::cpu).schedule.fused_axes);
  spec = BlurSpec::isotropic_3d(1.0);
  spec.rounding = Rounding::scipy;
  EXPECT_TRUE(make_plan(spec, View::packed(px.data(), ElementType::f32, 32, 8, 3), Backend::cpu).schedule.fused_axes);
  spec.axis_order = {1, 0, 2};
  EXPECT_FALSE(make_plan(spec, View::packed(px.data(), ElementType::f32, 32, 8, 3), Backend::cpu).schedule.fused_axes);
  spec = BlurSpec::isotropic_2d(1.0);
  spec.sigma[1] = 0.0;
  spec.rounding = Rounding::scipy;
  EXPECT_FALSE(make_plan(spec, View::packed(px.data(), ElementType::f32, 32, 24), Backend::cpu).schedule.fused_axes);
}

// Integer images whose sums stay within their type's range (kernel::sums_stay_in_range: a Gaussian,
// a cval of the range) store each axis's sums truncated in registers (StoredAs::truncated): SciPy's
// bits at the range's ends - rows of the lowest and the highest values, and noise over the whole
// range - fused 2D, a volume's z over the source's planes and through its ring, every border.
TEST(ScipyOrder, SumsWithinTheTypesRangeStoredTruncatedGiveThePassesBits) {
  auto rng = test::rng_for_test();
  const ElementType types[] = {ElementType::i8, ElementType::u8, ElementType::i16, ElementType::u16, ElementType::i32,
                               ElementType::u32};
  struct Case { std::int64_t w, h, d; double s; bool ring; };
  const Case cases[] = {{45, 17, 1, 1.6, false}, {40, 9, 6, 1.2, false}, {36, 10, 5, 0.9, true}};
  int checked = 0;
  for (const ElementType t : types)
    for (std::size_t bi = 0; bi < test::all_borders().size(); ++bi)
      for (std::size_t ci = 0; ci < std::size(cases); ++ci) {
        const Case& cs = cases[ci];
        BlurSpec spec = cs.d > 1 ? BlurSpec::isotropic_3d(cs.s) : BlurSpec::isotropic_2d(cs.s);
        spec.with_border(test::all_borders()[bi]);
        spec.cval = 3.0;
        spec.rounding = Rounding::scipy;
        spec.threads = 2;
        auto src = test::make_buffer(t, cs.w, cs.h, cs.d, 1);
        const double lo = t == ElementType::i8 ? -128 : t == ElementType::i16 ? -32768 : t == ElementType::i32 ? -2147483648.0 : 0;
        const double hi = t == ElementType::i8 ? 127 : t == ElementType::u8 ? 255 : t == ElementType::i16 ? 32767
                        : t == ElementType::u16 ? 65535 : t == ElementType::i32 ? 2147483647.0 : 4294967295.0;
        std::uniform_real_distribution<double> any(lo, hi);
        for (std::int64_t z = 0; z < cs.d; ++z)
          for (std::int64_t y = 0; y < cs.h; ++y)
            for (std::int64_t x = 0; x < cs.w; ++x) {
              const double v = y % 4 == 0 ? lo : y % 4 == 1 ? hi : y % 4 == 2 ? ((x + z) % 2 ? lo : hi) : std::floor(any(rng));
              scipy_store(t, src.view.pixel(x, y, z), v);
            }
        Plan plan = make_plan(spec, src.view, t, Backend::cpu);
        ASSERT_TRUE(plan.schedule.fused_axes) << describe(plan);
        for (int a = 0; a < (cs.d > 1 ? 3 : 2); ++a)
          ASSERT_TRUE(kernel::sums_stay_in_range(*plan.axes[static_cast<std::size_t>(a)].weights, t, t, spec.cval));
        if (cs.d > 1) {
          plan.schedule.fused_z = true;
          plan.schedule.z_source_planes = !cs.ring;
        }
        expect_scipys_bits(src.view, spec, plan, [](const Schedule& s) { return s.fused_axes; },
                           std::string(to_string(t)) + " " + std::string(to_string(spec.border[0])) + " case " + std::to_string(ci));
        ++checked;
      }
  EXPECT_EQ(checked, 6 * static_cast<int>(test::all_borders().size()) * 3);
}

// 8- and 16-bit integers into their type with a Gaussian on both axes and a cval of the type: the
// rows stay integer-valued floats and SciPy's sums are certified in float32 (Schedule::scipy_int_certified,
// cpu/scipy_order_rows_int.cpp) - SciPy's bits on every border, bands of any count, kernels longer
// than the image, padded pixels, flat areas and noise; in place the plan's other driver runs.
TEST(ScipyOrder, IntegerRowsCertifiedGiveThePassesBits) {
  auto rng = test::rng_for_test();
  struct Case { std::int64_t w, h; int c; double sx, sy; int threads; int pad_px; };
  const Case cases[] = {{41, 29, 3, 1.2, 2.2, 2, 0}, {37, 6, 1, 2.0, 4.5, 7, 0}, {64, 33, 4, 0.8, 1.0, 3, 1},
                        {17, 40, 2, 6.0, 0.6, 1, 0}, {300, 20, 3, 3.5, 1.7, 2, 2}};
  int checked = 0;
  for (std::size_t bi = 0; bi < test::all_borders().size(); ++bi)
    for (std::size_t ci = 0; ci < std::size(cases); ++ci) {
      const Case& cs = cases[ci];
      BlurSpec spec;
      spec.sigma = {cs.sx, cs.sy, 0.0};
      spec.with_border(test::all_borders()[bi]);
      spec.cval = 7.0;
      spec.rounding = Rounding::scipy;
      spec.threads = cs.threads;
      // bool too (SciPy's npy_bool is an unsigned char); the signed types' values about zero
      const ElementType t = std::array{ElementType::u8, ElementType::b8, ElementType::u16, ElementType::i8, ElementType::u16}[ci];
      auto src = test::make_buffer(t, cs.w, cs.h, 1, cs.c, cs.pad_px);
      fill(src.view, rng);
      for (std::int64_t y = cs.h / 3; y < cs.h * 2 / 3; ++y)  // a flat patch: SciPy's truncations of x0
        for (std::int64_t x = 0; x < cs.w / 2; ++x)
          for (int c = 0; c < cs.c; ++c)
            scipy_store(t, src.view.pixel(x, y) + static_cast<std::size_t>(c) * element_size(t), t == ElementType::b8 ? 0.0 : (t == ElementType::i8 ? -30.0 : 3000.0) - static_cast<double>(ci));
      const Plan plan = make_plan(spec, src.view, t, Backend::cpu);
      ASSERT_TRUE(plan.schedule.scipy_int_certified) << describe(plan);
      ASSERT_NE(describe(plan).find("certified in float32"), std::string::npos);
      expect_scipys_bits(src.view, spec, plan, [](const Schedule& s) { return s.scipy_int_certified; },
                         std::string(to_string(t)) + " " + std::string(to_string(spec.border[0])) + " case " + std::to_string(ci));
      ++checked;
    }
  EXPECT_GE(checked, 20);
  // Not where a row of the type cannot hold the cval, nor into another type, nor 32-bit types, nor a volume.
  std::vector<std::uint8_t> px(64 * 24 * 3);
  BlurSpec spec = BlurSpec::isotropic_2d(1.5);
  spec.rounding = Rounding::scipy;
  const View image = View::packed(px.data(), ElementType::u8, 64, 24, 1, 3);
  EXPECT_TRUE(make_plan(spec, image, ElementType::u8, Backend::cpu).schedule.scipy_int_certified);
  EXPECT_FALSE(make_plan(spec, image, ElementType::f32, Backend::cpu).schedule.scipy_int_certified);
  spec.with_border(Border::constant);
  spec.cval = 2.5;
  EXPECT_FALSE(make_plan(spec, image, ElementType::u8, Backend::cpu).schedule.scipy_int_certified);
  spec.cval = 300.0;
  EXPECT_FALSE(make_plan(spec, image, ElementType::u8, Backend::cpu).schedule.scipy_int_certified);
  std::vector<std::int32_t> px32(64 * 24 * 3);
  spec.cval = 0.0;
  EXPECT_FALSE(make_plan(spec, View::packed(px32.data(), ElementType::i32, 64, 24, 1, 3), ElementType::i32, Backend::cpu)
                   .schedule.scipy_int_certified);
  std::vector<std::int16_t> px16(64 * 24 * 3);  // int16: the sums could, the plan keeps the double driver (measured)
  EXPECT_FALSE(make_plan(spec, View::packed(px16.data(), ElementType::i16, 64, 24, 1, 3), ElementType::i16, Backend::cpu)
                   .schedule.scipy_int_certified);
  spec = BlurSpec::isotropic_3d(1.5);
  spec.rounding = Rounding::scipy;
  EXPECT_FALSE(make_plan(spec, View::packed(px.data(), ElementType::u8, 64, 8, 3), ElementType::u8, Backend::cpu)
                   .schedule.scipy_int_certified);
}

// Neighbours thousands apart (uint16 noise over the whole range) leave many outputs to SciPy's
// double sums: a sample of rows finds it, the certified driver declines and the double driver runs,
// with the same bits; the same image scaled to neighbours a few hundred apart is certified.
TEST(ScipyOrder, IntegerRowsFarApartGoToTheDoubleDriver) {
  auto rng = test::rng_for_test();
  BlurSpec spec = BlurSpec::isotropic_2d(4.0);
  spec.rounding = Rounding::scipy;
  spec.threads = 2;
  for (int scale : {1, 200}) {
    auto src = test::make_buffer(ElementType::u16, 150, 40, 1, 1);
    std::uniform_int_distribution<int> any(0, 65535);
    for (std::int64_t y = 0; y < 40; ++y)
      for (std::int64_t x = 0; x < 150; ++x) {
        const auto v = static_cast<std::uint16_t>(any(rng) / scale);
        std::memcpy(src.view.pixel(x, y), &v, sizeof v);
      }
    const Plan plan = make_plan(spec, src.view, ElementType::u16, Backend::cpu);
    ASSERT_TRUE(plan.schedule.scipy_int_certified);
    auto out = test::make_buffer(ElementType::u16, 150, 40, 1, 1);
    EXPECT_EQ(cpu::scipy_order_rows_int_blur(plan, src.view, out.view, 2), scale != 1) << "scale " << scale;
    expect_scipys_bits(src.view, spec, plan, [](const Schedule& s) { return s.scipy_int_certified; },
                       "uint16 noise / " + std::to_string(scale));
  }
}

// A float32 destination past the caches is streamed (Schedule::stream_destination, the plan's
// choice from the last-level cache's size): the same bits as stored rows, rows aligned or not to a
// vector (a destination one float off), in place and not; the planner streams float32 only.
TEST(ScipyOrder, StreamedFloatRowsGiveTheStoredRowsBits) {
  auto rng = test::rng_for_test();
  for (const auto& [w, h, c] : {std::array<std::int64_t, 3>{97, 61, 4}, {130, 40, 3}, {45, 33, 1}})
    for (std::int64_t offset : {0, 1}) {
      BlurSpec spec = BlurSpec::isotropic_2d(1.7);
      spec.rounding = Rounding::scipy;
      spec.threads = 2;
      auto src = test::make_buffer(ElementType::f32, w, h, 1, static_cast<int>(c));
      fill(src.view, rng);
      std::vector<float> stored(static_cast<std::size_t>(w * h * c + 1)), streamed(stored.size());
      const View a = View::packed(stored.data() + offset, ElementType::f32, w, h, 1, static_cast<int>(c));
      const View b = View::packed(streamed.data() + offset, ElementType::f32, w, h, 1, static_cast<int>(c));
      Plan plan = make_plan(spec, src.view, Backend::cpu);
      ASSERT_TRUE(plan.schedule.fused_axes);
      plan.schedule.stream_destination = false;
      blur(src.view, a, plan);
      plan.schedule.stream_destination = true;
      blur(src.view, b, plan);
      ASSERT_TRUE(last_run()->schedule.stream_destination);
      std::string where;
      EXPECT_TRUE(same_bytes(a, b, &where)) << w << "x" << h << "x" << c << " offset " << offset << " at " << where;
      blur(src.view, src.view, plan);  // in place
      EXPECT_TRUE(same_bytes(src.view, a, &where)) << "in place " << w << "x" << h << "x" << c << " at " << where;
    }
  // The planner: a float32 image of half the last-level cache or more is streamed; float64 is not.
  const std::int64_t width = 4096;
  const std::int64_t height = static_cast<std::int64_t>(core::last_level_cache_bytes() / 2 / (width * 4 * sizeof(float))) + 2;
  BlurSpec spec = BlurSpec::isotropic_2d(1.0);
  spec.rounding = Rounding::scipy;
  EXPECT_TRUE(make_plan(spec, View::packed(static_cast<float*>(nullptr), ElementType::f32, width, height, 1, 4), Backend::cpu)
                  .schedule.stream_destination);
  EXPECT_FALSE(make_plan(spec, View::packed(static_cast<float*>(nullptr), ElementType::f32, width, 8, 1, 4), Backend::cpu)
                   .schedule.stream_destination);
  EXPECT_FALSE(make_plan(spec, View::packed(static_cast<double*>(nullptr), ElementType::f64, width, height, 1, 4), Backend::cpu)
                   .schedule.stream_destination);
}

// A volume filtered z, y, x with z's pass through a ring of planes and each output plane's y and x
// while in cache (Schedule::fused_z, cpu/scipy_order_planes.cpp): SciPy's bits for every type and
// border, bands of any count (more workers than planes too), padded pixels, kernels longer than the
// volume, and in place - where a band reads planes its neighbours, or its own border, write first.
TEST(ScipyOrder, ZFusedWithThePlanesGivesThePassesBits) {
  auto rng = test::rng_for_test();
  struct Case { std::int64_t w, h, d; int c; double s; int threads; int pad_px; };
  const Case cases[] = {{33, 13, 9, 1, 1.1, 2, 0}, {35, 11, 5, 2, 1.7, 7, 1},  // 7 workers on 5 planes
                        {40, 9, 13, 3, 0.8, 3, 0}, {36, 10, 3, 1, 2.5, 2, 0}};  // z's kernel longer than the volume
  int checked = 0;
  for (std::size_t ti = 0; ti < kEveryType.size(); ++ti)
    for (std::size_t bi = 0; bi < test::all_borders().size(); ++bi)
      for (std::size_t ci = 0; ci < std::size(cases); ++ci) {
        if (test::small_scale() && !test::grid_cell(static_cast<int>(ti), static_cast<int>(bi), static_cast<int>(ci))) continue;
        const Case& cs = cases[ci];
        const ElementType t = kEveryType[ti];
        BlurSpec spec = BlurSpec::isotropic_3d(cs.s);
        spec.with_border(test::all_borders()[bi]);
        spec.cval = -1.5;
        spec.rounding = Rounding::scipy;
        spec.threads = cs.threads;
        auto src = test::make_buffer(t, cs.w, cs.h, cs.d, cs.c, cs.pad_px);
        fill(src.view, rng);
        Plan plan = make_plan(spec, src.view, t, Backend::cpu);
        ASSERT_TRUE(plan.schedule.fused_axes) << describe(plan);
        plan.schedule.fused_z = true;  // the planner keeps it for volumes past the cache; the bits are the same
        for (const bool source_planes : {false, true}) {  // z through its ring, or over the source's planes where they lie
          plan.schedule.z_source_planes = source_planes;
          ASSERT_NE(describe(plan).find(source_planes ? "planes where they lie" : "ring of planes"), std::string::npos);
          expect_scipys_bits(src.view, spec, plan, [](const Schedule& s) { return s.fused_z; },
                             std::string(to_string(t)) + " " + std::string(to_string(spec.border[0])) + " case " +
                                 std::to_string(ci) + (source_planes ? " source planes" : " ring"));
        }
        ++checked;
      }
  EXPECT_GT(checked, 20);
  // The planner: a volume larger than half the cache whose ring fits is fused; a small one through a
  // ring and a long z kernel on large planes are not; a small one whose z sums the source's planes is.
  BlurSpec spec = BlurSpec::isotropic_3d(1.0);
  spec.rounding = Rounding::scipy;
  spec.threads = 2;
  const std::int64_t side = 160;  // planes of 160x160 doubles: 200 KiB
  const std::int64_t depth = static_cast<std::int64_t>(core::last_level_cache_bytes() / 2 / (side * side * 4)) + 2;
  const auto planned = [&](const BlurSpec& s, std::int64_t w, std::int64_t d) {
    return make_plan(s, View::packed(static_cast<float*>(nullptr), ElementType::f32, w, w, d, 1), Backend::cpu).schedule.fused_z;
  };
  EXPECT_TRUE(planned(spec, side, depth));
  EXPECT_TRUE(planned(spec, side, 8));  // float32 apart from its output: the source's planes
  EXPECT_FALSE(make_plan(spec, View::packed(static_cast<double*>(nullptr), ElementType::f64, side, side, 8, 1), Backend::cpu)
                   .schedule.fused_z);  // float64: a ring of planes, and z's result stays in the cache
  spec.sigma = {1.0, 1.0, 400.0};  // z's ring of 3203 planes
  EXPECT_FALSE(planned(spec, side, depth));
  // z over the source's planes where they lie (Schedule::z_source_planes): float32, 8- or 16-bit apart
  // from its output, z kernels up to 24 taps, no cval plane; then no ring counts, so larger planes fuse too.
  const auto plan_of = [&](const BlurSpec& s, ElementType t, std::int64_t w, std::int64_t d) {
    return make_plan(s, View::packed(static_cast<float*>(nullptr), t, w, w, d, 1), Backend::cpu);
  };
  spec.sigma = {2.0, 2.0, 2.0};  // 17 taps
  // Planes whose group (4 of doubles) over the most threads fills half of half the cache; the output past it.
  const double half_cache = static_cast<double>(core::last_level_cache_bytes()) / 2;
  const auto wide = static_cast<std::int64_t>(std::sqrt(half_cache / (2.0 * 4 * 8 * core::threads_for(1e300, 2))));
  const std::int64_t deep = static_cast<std::int64_t>(half_cache / static_cast<double>(wide * wide * 4)) + 2;
  EXPECT_TRUE(plan_of(spec, ElementType::f32, wide, deep).schedule.z_source_planes);
  EXPECT_TRUE(plan_of(spec, ElementType::i16, wide, deep * 2).schedule.z_source_planes);
  EXPECT_FALSE(plan_of(spec, ElementType::i32, wide, deep).schedule.z_source_planes);
  EXPECT_FALSE(plan_of(spec, ElementType::i32, wide, deep).schedule.fused_z);  // its ring of 24 planes does not fit
  spec.sigma = {4.0, 4.0, 4.0};  // 33 taps: no
  EXPECT_FALSE(plan_of(spec, ElementType::f32, wide, deep).schedule.z_source_planes);
  spec.sigma = {2.0, 2.0, 2.0};
  spec.with_border(Border::constant);  // cval planes: no
  EXPECT_FALSE(plan_of(spec, ElementType::f32, wide, deep).schedule.z_source_planes);
  // In place the ring keeps the planes a band overwrites: a blur in place plans without them.
  spec.with_border(Border::reflect);
  std::vector<float> volume(static_cast<std::size_t>(side * side * depth), 0.5f);
  const View v = View::packed(volume.data(), ElementType::f32, side, side, depth, 1);
  std::vector<float> apart(volume.size());
  blur(v, View::packed(apart.data(), ElementType::f32, side, side, depth, 1), spec);
  EXPECT_TRUE(last_run()->schedule.z_source_planes);
  blur(v, v, spec);
  EXPECT_TRUE(last_run()->schedule.fused_z);
  EXPECT_FALSE(last_run()->schedule.z_source_planes);
  EXPECT_EQ(volume, apart);
}

// An integer volume to nearest on the fused planes (z through its ring, over the source's planes, or
// its pass into a float64 volume), or an image on the fused rows (cpu::rounds_once): the axes pass
// doubles and the output is the float64 result rounded once - the same sums as the double driver into float64 (SciPy's
// order), rounded and saturated as core::store_element - for every integer type and border, bands of
// any count, padded pixels, both z paths, in place. And the planner's choice between it and the
// float32 passes per axis.
TEST(ScipyOrder, IntegersRoundedOnceAreTheDoubleResultRounded) {
  auto rng = test::rng_for_test();
  const ElementType types[] = {ElementType::i8,  ElementType::u8,  ElementType::i16, ElementType::u16,
                               ElementType::i32, ElementType::u32, ElementType::i64, ElementType::u64};
  struct Case { std::int64_t w, h, d; int c; double s; int threads; int pad_px; };
  const Case cases[] = {{33, 13, 9, 1, 1.1, 2, 0}, {35, 11, 5, 2, 1.7, 7, 1}, {36, 10, 3, 1, 2.5, 2, 0},
                        {37, 29, 1, 3, 1.3, 3, 1}, {30, 8, 1, 1, 2.2, 2, 0},  // images: their rows fused
                        {6, 9, 7, 1, 1.2, 2, 0},   // rows shorter than a vector: filtered across rows
                        {4, 20, 9, 1, 1.4, 2, 0}};  // x a pixel's values: y and z as an image of pixels
  int checked = 0;
  for (std::size_t ti = 0; ti < std::size(types); ++ti)
    for (std::size_t bi = 0; bi < test::all_borders().size(); ++bi)
      for (std::size_t ci = 0; ci < std::size(cases); ++ci) {
        if (test::small_scale() && !test::grid_cell(static_cast<int>(ti), static_cast<int>(bi), static_cast<int>(ci))) continue;
        const Case& cs = cases[ci];
        const ElementType t = types[ti];
        const bool image = cs.d == 1;
        BlurSpec spec = image ? BlurSpec::isotropic_2d(cs.s) : BlurSpec::isotropic_3d(cs.s);
        spec.with_border(test::all_borders()[bi]);
        spec.cval = 41.5;
        spec.threads = cs.threads;
        auto src = test::make_buffer(t, cs.w, cs.h, cs.d, cs.c, cs.pad_px);
        fill(src.view, rng);
        // Extremes, so that sums saturate at both ends of the type.
        // (64-bit integers: the ends of what double holds exactly.)
        const auto range = core::integer_range(t).value_or(
            t == ElementType::i64 ? core::IntegerRange{-9007199254740992.0, 9007199254740992.0} : core::IntegerRange{0.0, 9007199254740992.0});
        core::store_element(t, src.view.pixel(0, 0, 0), range.lowest);
        core::store_element(t, src.view.pixel(1, 0, 0), range.highest);
        core::store_element(t, src.view.pixel(2, 1, std::min<std::int64_t>(1, cs.d - 1)), range.highest);
        auto f64 = test::make_buffer(ElementType::f64, cs.w, cs.h, cs.d, cs.c);
        blur(src.view, f64.view, spec);
        ASSERT_EQ(last_run()->schedule.driver, CpuDriver::scipy_order);
        auto want = test::make_buffer(t, cs.w, cs.h, cs.d, cs.c);
        for (std::int64_t z = 0; z < cs.d; ++z)
          for (std::int64_t y = 0; y < cs.h; ++y)
            for (std::int64_t x = 0; x < cs.w; ++x)
              for (int c = 0; c < cs.c; ++c)
                core::store_element(t, want.view.pixel(x, y, z) + static_cast<std::size_t>(c) * element_size(t),
                                    test::get(f64.view, x, y, z, c));
        Plan plan = make_plan(spec, src.view, t, Backend::cpu);
        plan.schedule.driver = CpuDriver::scipy_order;  // each way of z forced, the pixels' image off
        plan.schedule.pixels_image = nullptr;
        plan.schedule.intermediate = ElementType::f64;
        // A volume's z: through a ring of planes, over the source's planes, or its pass per axis into
        // a float64 volume before the fused planes; or every pass into that volume, rounded at the end.
        enum class Z { ring, source_planes, pass_into_doubles, every_pass_into_doubles };
        for (const Z zway : {Z::ring, Z::source_planes, Z::pass_into_doubles, Z::every_pass_into_doubles}) {
          if (image && (zway == Z::source_planes || zway == Z::pass_into_doubles)) continue;
          plan.schedule.fused_axes = zway != Z::every_pass_into_doubles;
          plan.schedule.fused_z = !image && (zway == Z::ring || zway == Z::source_planes);
          plan.schedule.z_source_planes = zway == Z::source_planes;
          const std::string what = std::string(to_string(t)) + " " + std::string(to_string(spec.border[0])) + " case " +
                                   std::to_string(ci) + (zway == Z::source_planes       ? " source planes"
                                                         : zway == Z::ring              ? " ring"
                                                         : zway == Z::pass_into_doubles ? " z's pass into doubles"
                                                                                        : " every pass into doubles");
          auto got = test::make_buffer(t, cs.w, cs.h, cs.d, cs.c);
          blur(src.view, got.view, plan);
          ASSERT_TRUE(last_run()->schedule.fused_axes == plan.schedule.fused_axes &&
                      last_run()->schedule.fused_z == plan.schedule.fused_z) << what;
          std::string where;
          EXPECT_TRUE(same_bytes(got.view, want.view, &where)) << what << " at " << where;
          auto copy = test::make_buffer(t, cs.w, cs.h, cs.d, cs.c, cs.pad_px);
          for (std::int64_t z = 0; z < cs.d; ++z)
            for (std::int64_t y = 0; y < cs.h; ++y)
              for (std::int64_t x = 0; x < cs.w; ++x)
                for (int c = 0; c < cs.c; ++c) test::set(copy.view, x, y, z, c, test::get(src.view, x, y, z, c));
          blur(copy.view, copy.view, plan);  // in place
          EXPECT_TRUE(same_bytes(copy.view, want.view, &where)) << "in place " << what << " at " << where;
        }
        // The planner's own plan for the request (a volume whose x is more than a pixel's values, or
        // 32-bit integers): the same bits.
        const bool wide = t == ElementType::i32 || t == ElementType::u32 || t == ElementType::i64 || t == ElementType::u64;
        if ((image || cs.w * cs.c <= 4) && !wide) {
          ++checked;
          continue;
        }
        auto planned = test::make_buffer(t, cs.w, cs.h, cs.d, cs.c);
        blur(src.view, planned.view, spec);
        ASSERT_EQ(last_run()->schedule.driver, CpuDriver::scipy_order) << to_string(t) << " case " << ci;
        std::string where;
        EXPECT_TRUE(same_bytes(planned.view, want.view, &where)) << "planned " << to_string(t) << " case " << ci << " at " << where;
        ++checked;
      }
  EXPECT_GT(checked, 10);
  // The planner: 32-bit integers' images and volumes (their other drivers in double), 8- and 16-bit
  // volumes whose z kernel has up to 17 taps (not their images), at every size - a piece of an array
  // gets the whole call's bits; never a derivative or a float type.
  BlurSpec spec = BlurSpec::isotropic_3d(1.5);
  spec.threads = 2;
  const auto plan_of = [&](const BlurSpec& s, ElementType t, std::int64_t w, std::int64_t d) {
    return make_plan(s, View::packed(static_cast<std::int16_t*>(nullptr), t, w, w, d, 1), Backend::cpu).schedule;
  };
  const auto rounded_once = [](const Schedule& s) { return s.driver == CpuDriver::scipy_order && s.fused_z; };
  EXPECT_NE(describe(make_plan(spec, View::packed(static_cast<std::int32_t*>(nullptr), ElementType::i32, 64, 64, 16, 1), Backend::cpu))
                .find("SciPy's order rounded once: axes z, y, x, doubles between them, the result rounded to nearest into i32"),
            std::string::npos);
  const std::int64_t side = 128;
  const auto depth_for = [&](double bytes_per_element, double share) {
    return static_cast<std::int64_t>(static_cast<double>(core::last_level_cache_bytes()) * share /
                                     (bytes_per_element * static_cast<double>(side * side))) + 2;
  };
  EXPECT_TRUE(rounded_once(plan_of(spec, ElementType::i32, side, 16)));
  EXPECT_TRUE(rounded_once(plan_of(spec, ElementType::u32, side, 16)));
  EXPECT_TRUE(rounded_once(plan_of(spec, ElementType::i64, side, 16)));
  EXPECT_TRUE(rounded_once(plan_of(spec, ElementType::i16, side, depth_for(8, 0.25))));
  EXPECT_TRUE(rounded_once(plan_of(spec, ElementType::i16, 40, 5)));  // small: the same rule
  EXPECT_TRUE(rounded_once(plan_of(spec, ElementType::u8, side, depth_for(6, 0.25))));
  EXPECT_FALSE(rounded_once(plan_of(spec, ElementType::f32, side, depth_for(12, 0.25))));
  const Schedule narrow = plan_of(spec, ElementType::u16, 5, 9);  // x across rows: every pass into doubles
  EXPECT_TRUE(narrow.driver == CpuDriver::scipy_order && narrow.x_across_rows && !narrow.fused_axes);
  const auto pixels = [&](ElementType t) {  // x a pixel's 4 values (RGBA under one sigma)
    return make_plan(spec, View::packed(static_cast<std::int16_t*>(nullptr), t, 4, 300, 200, 1), Backend::cpu).schedule;
  };
  EXPECT_NE(pixels(ElementType::u16).driver, CpuDriver::scipy_order);  // the float32 passes across its pixels
  EXPECT_TRUE(pixels(ElementType::i32).driver == CpuDriver::scipy_order && pixels(ElementType::i32).pixels_image);
  EXPECT_FALSE(rounded_once(plan_of(spec, ElementType::i16, side, 1)));  // an image: the float32 fused rows
  spec.sigma = {1.5, 1.5, 0.0};
  const Schedule image = plan_of(spec, ElementType::i32, side, 1);
  EXPECT_TRUE(image.driver == CpuDriver::scipy_order && image.fused_axes) << "an int32 image";
  EXPECT_NE(plan_of(spec, ElementType::i16, side, 1).driver, CpuDriver::scipy_order);
  spec.sigma = {1.5, 1.5, 3.0};  // 25 z taps: the float32 passes; in double z's pass into doubles
  EXPECT_FALSE(rounded_once(plan_of(spec, ElementType::i16, side, depth_for(8, 0.25))));
  const Schedule long_z = plan_of(spec, ElementType::i32, side, 16);
  EXPECT_TRUE(long_z.driver == CpuDriver::scipy_order && long_z.fused_axes && !long_z.fused_z);
  spec.sigma = {1.5, 1.5, 1.5};
  spec.order = {0, 1, 0};  // a derivative: the line driver
  EXPECT_FALSE(rounded_once(plan_of(spec, ElementType::i32, side, 16)));
  spec.order = {0, 0, 0};
  spec.rounding = Rounding::scipy;  // SciPy's bits: its own rules
  EXPECT_NE(describe(make_plan(spec, View::packed(static_cast<std::int32_t*>(nullptr), ElementType::i32, side, side, 16, 1),
                               Backend::cpu)).find("rounding scipy"), std::string::npos);
}

// float64 out to nearest is SciPy's order into float64 - which rounds nothing - so it takes the
// default's plan (z with the planes where the default does: apart, 1.10-1.19x at 128^3) and gives its
// bits, z fused or not, over the source's planes or through the ring.
TEST(ScipyOrder, Float64ToNearestIsTheDefaultsPlanAndBits) {
  auto rng = test::rng_for_test();
  BlurSpec spec = BlurSpec::isotropic_3d(1.0);
  spec.threads = 2;
  const auto plan_for = [&](Rounding r, std::int64_t side, std::int64_t depth) {
    BlurSpec s = spec;
    s.rounding = r;
    return make_plan(s, View::packed(static_cast<double*>(nullptr), ElementType::f64, side, side, depth, 1), Backend::cpu);
  };
  const std::int64_t deep = static_cast<std::int64_t>(static_cast<double>(core::last_level_cache_bytes()) / (8.0 * 128 * 128)) + 8;
  for (const std::int64_t depth : {std::int64_t{16}, deep}) {
    const Schedule a = plan_for(Rounding::scipy, 128, depth).schedule, b = plan_for(Rounding::nearest, 128, depth).schedule;
    EXPECT_TRUE(a.driver == b.driver && a.fused_axes == b.fused_axes && a.fused_z == b.fused_z &&
                a.z_source_planes == b.z_source_planes) << "depth " << depth;
    if (depth == deep) EXPECT_TRUE(b.fused_z) << "an output past half the cache: z with the planes";
  }
  auto src = test::make_buffer(ElementType::f64, 37, 23, 11, 1, 1);
  fill(src.view, rng);
  for (const Border border : {Border::reflect, Border::constant}) {
    spec.with_border(border);
    spec.cval = 0.25;
    auto want = test::make_buffer(ElementType::f64, 37, 23, 11, 1);
    spec.rounding = Rounding::scipy;
    blur(src.view, want.view, spec);
    spec.rounding = Rounding::nearest;
    Plan plan = make_plan(spec, src.view, ElementType::f64, Backend::cpu);
    ASSERT_EQ(plan.schedule.driver, CpuDriver::scipy_order);
    for (const bool fused_z : {false, true})
      for (const bool source_planes : {false, true}) {
        if (source_planes && (!fused_z || border == Border::constant)) continue;
        plan.schedule.fused_z = fused_z;
        plan.schedule.z_source_planes = source_planes;
        auto got = test::make_buffer(ElementType::f64, 37, 23, 11, 1);
        blur(src.view, got.view, plan);
        std::string where;
        EXPECT_TRUE(same_bytes(got.view, want.view, &where)) << to_string(border) << " fused_z " << fused_z << " source planes "
                                                             << source_planes << " at " << where;
      }
  }
}

TEST(ScipyOrder, ThePlannerGivesItToExactCpuRequestsOnly) {
  std::vector<float> px(64 * 48);
  const View v = View::packed(px.data(), ElementType::f32, 64, 48);
  BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  spec.rounding = Rounding::scipy;
  Plan p = make_plan(spec, v);
  EXPECT_EQ(p.schedule.driver, CpuDriver::scipy_order);
  EXPECT_EQ(p.schedule.intermediate, ElementType::f64);
  EXPECT_NE(describe(p).find("driver scipy-order"), std::string::npos);
  EXPECT_NE(describe(p).find("rounding scipy: axes y, x"), std::string::npos) << describe(p);
  spec.tolerance = 1e-3;  // not SciPy's filter: rounds to nearest
  p = make_plan(spec, v);
  EXPECT_NE(p.schedule.driver, CpuDriver::scipy_order);
  EXPECT_EQ(p.spec.rounding, Rounding::nearest);
  spec.tolerance = 0.0;
  spec.algorithm = Algorithm::box;
  EXPECT_EQ(make_plan(spec, v).spec.rounding, Rounding::nearest);
  spec.algorithm = Algorithm::fir;
  EXPECT_EQ(make_plan(spec, v).schedule.driver, CpuDriver::scipy_order);
  EXPECT_EQ(make_plan(spec, v, Backend::vulkan).spec.rounding, Rounding::nearest);
  spec.axis_order = {0, 0, 1};
  EXPECT_THROW(make_plan(spec, v), InvalidArgument);
  spec.axis_order = {1, 0, 2};
  spec.weights[0] = {0.5, 0.5};
  EXPECT_THROW(make_plan(spec, v), InvalidArgument);  // not 2 radius + 1 values
}

// NumPy's other element types through every CPU algorithm (rounding nearest): each result is the
// same algorithm's float64 result, rounded and saturated (within 1: float lanes round too).
TEST(ScipyOrder, NumpysOtherTypesRunOnEveryDriver) {
  auto rng = test::rng_for_test();
  const ElementType types[] = {ElementType::i8, ElementType::i16, ElementType::i32, ElementType::u32,
                               ElementType::i64, ElementType::u64, ElementType::b8};
  for (const AlgorithmInfo& info : algorithms()) {
    if (info.id == Algorithm::automatic || !info.capabilities.cpu) continue;
    for (ElementType t : types) {
      BlurSpec spec = BlurSpec::isotropic_2d(2.5);
      spec.algorithm = info.id;
      auto src = test::make_buffer(t, 41, 29, 1, 2);
      fill(src.view, rng);
      auto got = test::make_buffer(t, 41, 29, 1, 2);
      auto f64 = test::make_buffer(ElementType::f64, 41, 29, 1, 2);
      blur(src.view, got.view, spec);
      blur(src.view, f64.view, spec);
      double worst = 0.0;
      for (std::int64_t y = 0; y < 29; ++y)
        for (std::int64_t x = 0; x < 41; ++x)
          for (int c = 0; c < 2; ++c) {
            auto b = test::make_buffer(t, 1, 1, 1, 1);
            core::store_element(t, b.view.data, test::get(f64.view, x, y, 0, c));
            worst = std::max(worst, std::abs(test::get(got.view, x, y, 0, c) - test::get(b.view, 0, 0, 0, 0)));
          }
      EXPECT_LE(worst, 1.0) << info.name << " " << to_string(t);
    }
  }
}

}  // namespace
}  // namespace fastblur
