// The contract of blur.hpp, kept by every algorithm of the registry that a backend runs, for every
// element type and border: the source is never written; in place equals out of place; views that
// overlap behave as out of place; strided and flipped views give what packed ones give; the thread
// count changes nothing; a flat image stays flat. On the CPU, and on a Vulkan device where one exists.
// And every algorithm equals its double-precision twin (registered by its own test file) over one
// grid of awkward shapes, types, borders, channels and parameter values generated from the registry.
// (Each algorithm's accuracy as a Gaussian is its own test's: tests/cpu/NAME_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>

#include "support/test_support.hpp"
#include "support/twins.hpp"

namespace fastblur {
namespace {

struct Shape {
  std::int64_t w, h, d;
  int channels;
};

// The algorithms `device` runs on data of `dimensions` axes, auto excluded.
std::vector<const AlgorithmInfo*> algorithms_on(const Device& device, int dimensions) {
  std::vector<const AlgorithmInfo*> out;
  for (const AlgorithmInfo& a : algorithms())
    if (a.id != Algorithm::automatic && a.runs_on(device.is_cpu() ? Backend::cpu : Backend::vulkan, dimensions))
      out.push_back(&a);
  return out;
}

// Every device of this machine: the CPU, and the first Vulkan device if there is one.
std::vector<Device> devices() {
  std::vector<Device> out{Device::cpu()};
  if (vulkan_available()) {
    try {
      if (!vulkan_devices().empty()) out.push_back(Device::vulkan());
    } catch (const Error&) {  // no loader or no device: the CPU only
    }
  }
  return out;
}

BlurSpec spec_for(const AlgorithmInfo& a, const Shape& s, Border border, ElementType type) {
  BlurSpec spec;
  // A sigma every algorithm takes (dual-kawase needs 1, downsample more than 1.22, iir 0.5), another on y.
  spec.sigma = {2.5, 1.75, s.d > 1 ? 1.5 : 0.0};
  spec.with_border(border);
  spec.cval = 0.3 * test::type_scale(type);
  spec.algorithm = a.id;
  return spec;
}

bool same_values(const View& a, const View& b) {
  for (std::int64_t z = 0; z < a.depth(); ++z)
    for (std::int64_t y = 0; y < a.height(); ++y)
      for (std::int64_t x = 0; x < a.width(); ++x)
        for (int c = 0; c < a.channels; ++c) {
          const double p = test::get(a, x, y, z, c), q = test::get(b, x, y, z, c);
          if (!(p == q || (std::isnan(p) && std::isnan(q)))) return false;
        }
  return true;
}

void copy_values(const View& from, const View& to) {
  for (std::int64_t z = 0; z < from.depth(); ++z)
    for (std::int64_t y = 0; y < from.height(); ++y)
      for (std::int64_t x = 0; x < from.width(); ++x)
        for (int c = 0; c < from.channels; ++c) test::set(to, x, y, z, c, test::get(from, x, y, z, c));
}

std::string what(const AlgorithmInfo& a, const Device& device, ElementType type, Border border, const Shape& s) {
  return std::string(a.name) + " on " + device.description() + ", " + std::string(to_string(type)) + ", " +
         std::string(to_string(border)) + ", " + std::to_string(s.w) + "x" + std::to_string(s.h) + "x" +
         std::to_string(s.d) + "x" + std::to_string(s.channels);
}

TEST(Contract, SourceUntouchedInPlaceOverlappingAndStridedViewsAgree) {
  auto rng = test::rng_for_test();
  for (const Device& device : devices())
    for (const Shape s : {Shape{23, 17, 1, 3}, Shape{9, 8, 7, 2}})
      for (const AlgorithmInfo* a : algorithms_on(device, s.d > 1 ? 3 : 2))
        for (ElementType type : test::all_types())
          for (Border border : test::all_borders()) {
            const BlurSpec spec = spec_for(*a, s, border, type);
            const std::string name = what(*a, device, type, border, s);
            test::Buffer src = test::make_buffer(type, s.w, s.h, s.d, s.channels);
            test::fill_random(src.view, rng);
            const std::vector<std::byte> before = src.bytes;
            test::Buffer out = test::make_buffer(type, s.w, s.h, s.d, s.channels);
            blur(src.view, out.view, spec, device);
            ASSERT_EQ(src.bytes, before) << name << ": the source was written";
            // In place.
            test::Buffer same = src;
            same.view.data = same.bytes.data();
            blur(same.view, same.view, spec, device);
            ASSERT_EQ(same.bytes, out.bytes) << name << ": in place";
            // Strided and flipped views, source and destination.
            test::Buffer strided = test::make_buffer(type, s.w, s.h, s.d, s.channels, 3, 5, true);
            test::Buffer strided_out = test::make_buffer(type, s.w, s.h, s.d, s.channels, 1, 7, true);
            copy_values(src.view, strided.view);
            blur(strided.view, strided_out.view, spec, device);
            ASSERT_TRUE(same_values(strided_out.view, out.view)) << name << ": strided and flipped views";
            // Overlapping: the destination is the source shifted by one pixel in the same memory.
            test::Buffer big = test::make_buffer(type, s.w + 1, s.h, s.d, s.channels);
            View from = big.view, to = big.view;
            from.extent = to.extent = {s.w, s.h, s.d};
            to.data = static_cast<std::byte*>(to.data) + to.stride[0];
            copy_values(src.view, from);
            blur(from, to, spec, device);
            ASSERT_TRUE(same_values(to, out.view)) << name << ": overlapping views";
          }
}

TEST(Contract, ThreadCountsChangeNothing) {
  auto rng = test::rng_for_test();
  for (const Shape s : {Shape{160, 121, 1, 4}, Shape{40, 37, 29, 1}})
    for (const AlgorithmInfo* a : algorithms_on(Device::cpu(), s.d > 1 ? 3 : 2)) {
      BlurSpec spec = spec_for(*a, s, Border::reflect, ElementType::f32);
      test::Buffer src = test::make_buffer(ElementType::f32, s.w, s.h, s.d, s.channels);
      test::fill_random(src.view, rng);
      std::vector<std::vector<std::byte>> results;
      for (int threads : {1, 2, 3, 0}) {
        spec.threads = threads;
        test::Buffer out = test::make_buffer(ElementType::f32, s.w, s.h, s.d, s.channels);
        blur(src.view, out.view, spec);
        results.push_back(out.bytes);
      }
      for (std::size_t i = 1; i < results.size(); ++i) ASSERT_EQ(results[0], results[i]) << a->name << " run " << i;
    }
}

TEST(Contract, FlatImagesStayFlat) {
  const Shape shapes[] = {Shape{31, 26, 1, 2}, Shape{1, 1, 1, 4}, Shape{1, 9, 1, 1}, Shape{17, 1, 1, 2}, Shape{11, 9, 7, 1}};
  for (const Device& device : devices())
    for (int si = 0; si < static_cast<int>(std::size(shapes)); ++si)
      for (const AlgorithmInfo* a : algorithms_on(device, shapes[si].d > 1 ? 3 : 2))
        for (int ti = 0; ti < static_cast<int>(test::all_types().size()); ++ti)
          for (int bi = 0; bi < static_cast<int>(test::all_borders().size()); ++bi)
            for (double scale : {1.0, 6.0}) {  // sigmas up to 15: beyond the image
              if (!test::grid_cell(ti, bi, si)) continue;  // FASTBLUR_TEST_SCALE=small: a Latin square
              const Shape s = shapes[si];
              const ElementType type = test::all_types()[ti];
              const Border border = test::all_borders()[bi];
              BlurSpec spec = spec_for(*a, s, border, type);
              for (double& sigma : spec.sigma) sigma *= scale;
              const double value = 0.625 * test::type_scale(type);
              spec.cval = value;  // constant continues the image by the same value
              test::Buffer src = test::make_buffer(type, s.w, s.h, s.d, s.channels);
              for (std::int64_t z = 0; z < s.d; ++z)
                for (std::int64_t y = 0; y < s.h; ++y)
                  for (std::int64_t x = 0; x < s.w; ++x)
                    for (int c = 0; c < s.channels; ++c) test::set(src.view, x, y, z, c, value);
              test::Buffer out = test::make_buffer(type, s.w, s.h, s.d, s.channels);
              blur(src.view, out.view, spec, device);
              const double stored = test::get(src.view, 0, 0, 0, 0);
              double worst = 0.0;
              for (std::int64_t z = 0; z < s.d; ++z)
                for (std::int64_t y = 0; y < s.h; ++y)
                  for (std::int64_t x = 0; x < s.w; ++x)
                    for (int c = 0; c < s.channels; ++c)
                      worst = std::max(worst, std::abs(test::get(out.view, x, y, z, c) - stored));
              // Float sums of weights that add up to 1: a few float roundings (integers round back).
              EXPECT_LE(worst, is_integer(type) ? 0.0 : 2e-6 * std::abs(stored) + 1e-12)
                  << what(*a, device, type, border, s) << " sigma x " << scale;
            }
}

// The spec's parameter values to try: the defaults, then each parameter of the algorithm at another
// value of its range (the first non-default choice, a flag set, the range's low end).
std::vector<BlurSpec> parameter_variants(const AlgorithmInfo& a, const BlurSpec& base) {
  std::vector<BlurSpec> out{base};
  for (const ParameterInfo& p : a.parameters) {
    ParameterValue v;
    switch (p.kind) {
      case ParameterInfo::Kind::integer:
        v = static_cast<std::int64_t>(p.zero_chooses || p.min > 1 || p.max < 1 ? p.min : 1);
        break;
      case ParameterInfo::Kind::real: v = std::clamp(1.0, p.min, p.max); break;
      case ParameterInfo::Kind::flag: v = true; break;
      case ParameterInfo::Kind::choice: v = std::string(p.choices.back()); break;
      case ParameterInfo::Kind::real_list:  // small values within the range (offsets from 0.5, weights)
        v = std::vector<double>{std::max(p.min, 0.0) + 0.5, std::max(p.min, 0.0) + 1.5, std::max(p.min, 0.0) + 2.5};
        break;
    }
    BlurSpec s = base;
    set_parameter(s, p.key, v);
    out.push_back(s);
  }
  return out;
}

// Algorithms whose result is checked against the float64 reference by their own tests instead of a
// twin: fir and fft (reference::separable_blur, tests/cpu/fir_test.cpp, fft_test.cpp), iir (against
// fir within its documented bound, and its recursion over an explicit extension), downsample (the
// image pipeline away from the edges).
bool checked_by_its_own_reference(Algorithm a) {
  return a == Algorithm::fir || a == Algorithm::fft || a == Algorithm::iir || a == Algorithm::downsample;
}

TEST(Contract, EveryAlgorithmEqualsItsTwin) {
  auto rng = test::rng_for_test();
  for (const AlgorithmInfo& a : algorithms()) {
    if (a.id == Algorithm::automatic || !a.runs_on(Backend::cpu, 2) || checked_by_its_own_reference(a.id)) continue;
    const test::Twin* twin = nullptr;
    for (const test::Twin& t : test::twins())
      if (t.algorithm == a.id) twin = &t;
    ASSERT_NE(twin, nullptr) << a.name << " has no twin: register one in its test file (tests/support/twins.hpp)";
    struct Case {
      std::int64_t w, h, d;
      double sx, sy, sz;
    };
    // 1x1, a column, a row, primes, sigma beyond the image, small squares, a volume.
    const Case cases[] = {{1, 1, 1, 2, 2, 0},  {1, 19, 1, 1.5, 3.3, 0}, {23, 1, 1, 1.2, 1, 0}, {31, 29, 1, 2.2, 4.7, 0},
                          {13, 7, 1, 25, 25, 0}, {2, 2, 1, 1.3, 1.0, 0},  {5, 3, 1, 12, 9, 0},  {9, 8, 7, 1.5, 1.1, 2.5}};
    int ran = 0, refused = 0;
    for (int ci = 0; ci < static_cast<int>(std::size(cases)); ++ci) {
      const Case& c = cases[ci];
      if (c.d > 1 && a.capabilities.max_dimensions < 3) continue;
      for (int ti = 0; ti < static_cast<int>(test::all_types().size()); ++ti)
        for (int bi = 0; bi < static_cast<int>(test::all_borders().size()); ++bi) {
          if (!test::grid_cell(ti, bi, ci)) continue;  // FASTBLUR_TEST_SCALE=small: a Latin square
          const ElementType type = test::all_types()[ti];
          const Border border = test::all_borders()[bi];
          BlurSpec base;
          base.sigma = {c.sx, c.sy, c.sz};
          base.with_border(border);
          base.cval = 0.3 * test::type_scale(type);
          base.algorithm = a.id;
          for (const BlurSpec& spec : parameter_variants(a, base)) {
            const int channels = 1 + static_cast<int>(rng() % 4);
            test::Buffer src = test::make_buffer(type, c.w, c.h, c.d, channels);
            test::fill_random(src.view, rng);
            test::Buffer out = test::make_buffer(type, c.w, c.h, c.d, channels);
            try {
              blur(src.view, out.view, spec);
            } catch (const InvalidArgument&) {  // a parameter value this sigma cannot take
              ++refused;
              continue;
            }
            test::Buffer exact = test::make_buffer(ElementType::f64, c.w, c.h, c.d, channels);
            twin->compute(src.view, exact.view, spec);
            std::string where;
            // the plan's integer contract: within 1 on fir's fixed-point schedule (correlate's on 8-bit images)
            const double bound = type == ElementType::u8 && a.capabilities.separable  // only they may
                                     ? test::integer_bound_of(make_plan(spec, src.view))
                                     : 0.5;
            ASSERT_LE(test::worst_ratio(out.view, exact.view, twin->taps, &where, bound), 1.0)
                << a.name << " " << to_string(type) << " " << to_string(border) << " " << c.w << "x" << c.h << "x" << c.d
                << "x" << channels << " sigma " << c.sx << "," << c.sy << "," << c.sz << " at " << where;
            ++ran;
          }
        }
    }
    std::printf("[ measured ] %s: %d cases equal their twin, %d refused by the algorithm\n", std::string(a.name).c_str(),
                ran, refused);
    EXPECT_GT(ran, 8 * refused) << a.name << ": most cases must run";
  }
}

}  // namespace
}  // namespace fastblur
