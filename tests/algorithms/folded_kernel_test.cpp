// algorithms/folded_kernel: a radius beyond its axis, folded onto what the border mode reads, gives
// the result of every tap (the double reference with the unfolded kernel), at a radius bounded by
// the axis, in bounded time and memory (issue 44).
#include <gtest/gtest.h>

#include <chrono>
#include <tuple>

#include "algorithms/folded_kernel.hpp"
#include "fastblur/kernel.hpp"
#include "support/convolve_reference.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

TEST(FoldedKernel, ARadiusBeyondTheAxisGivesTheResultOfEveryTap) {
  auto rng = test::rng_for_test();
  constexpr int kRadius = 600;
  int folded_axes = 0;
  for (Border border : test::all_borders())
    for (const auto& [w, h, d] : {std::tuple{1, 7, 1}, std::tuple{2, 3, 1}, std::tuple{5, 4, 3}, std::tuple{8, 1, 1},
                                  std::tuple{3, 9, 2}})
      for (double sigma : {0.7, 2.5, 40.0})
        for (ElementType type : {ElementType::f32, ElementType::f64}) {
          test::Buffer src = test::make_buffer(type, w, h, d, 2);
          test::fill_random(src.view, rng);
          BlurSpec spec;
          spec.sigma = {sigma, 0.8 * sigma, d > 1 ? 1.3 * sigma : 0.0};
          spec.radius = {kRadius, kRadius, kRadius};
          spec.with_border(border);
          spec.cval = 0.37 * test::type_scale(type);
          const std::string what = std::string(to_string(border)) + " " + std::to_string(w) + "x" + std::to_string(h) +
                                   "x" + std::to_string(d) + " sigma " + std::to_string(sigma) + " " +
                                   std::string(to_string(type));
          const Plan plan = make_plan(spec, src.view);
          std::array<std::vector<double>, 3> unfolded;
          for (std::size_t a = 0; a < 3; ++a) {
            const AxisPlan& ax = plan.axes[a];
            if (!ax.active) continue;
            unfolded[a] = kernel::gaussian_weights(spec.sigma[a], kRadius);
            const int R = algo::folded_radius(src.view.extent[a]);
            ASSERT_EQ(ax.folded_from, kRadius) << what;
            ASSERT_EQ(ax.radius, R) << what;
            ASSERT_EQ(ax.support, R) << what;
            ASSERT_EQ(ax.weights->size(), 2 * static_cast<std::size_t>(R) + 1) << what;
            ++folded_axes;
          }
          test::Buffer got = test::make_buffer(type, w, h, d, 2), want = test::make_buffer(ElementType::f64, w, h, d, 2);
          blur(src.view, got.view, plan);
          test::convolve_reference(src.view, want.view, unfolded, spec);
          const double tol = (type == ElementType::f32 ? 3e-6 : 1e-12) * test::type_scale(type);
          for (std::int64_t z = 0; z < d; ++z)
            for (std::int64_t y = 0; y < h; ++y)
              for (std::int64_t x = 0; x < w; ++x)
                for (int c = 0; c < 2; ++c)
                  ASSERT_NEAR(test::get(got.view, x, y, z, c), test::get(want.view, x, y, z, c), tol)
                      << what << " at " << x << "," << y << "," << z;
          test::Buffer in_place = src;
          in_place.view.data = in_place.bytes.data() + (static_cast<std::byte*>(src.view.data) - src.bytes.data());
          blur(in_place.view, in_place.view, plan);
          EXPECT_EQ(in_place.bytes, got.bytes) << what << " in place";
        }
  EXPECT_GT(folded_axes, 100);
}

TEST(FoldedKernel, SciPysBitsAndRadiiWithinTheAxisAreNotFolded) {
  std::vector<float> data(16 * 16);
  const View v = View::packed(data.data(), ElementType::f32, 16, 16);
  BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  spec.radius = {40, 40, 0};
  spec.rounding = Rounding::scipy;  // SciPy sums every tap in its order
  EXPECT_EQ(make_plan(spec, v).axes[0].radius, 40);
  EXPECT_EQ(make_plan(spec, v).axes[0].folded_from, 0);
  spec.rounding = Rounding::nearest;
  spec.radius = {15, 15, 0};  // reflect's folded radius on 16 samples is 16: nothing to fold
  EXPECT_EQ(make_plan(spec, v).axes[0].radius, 15);
  EXPECT_EQ(make_plan(spec, v).axes[0].folded_from, 0);
}

TEST(FoldedKernel, AHugeRadiusCostsTheAxisNotTheRadius) {
  // `fastblur blur small.npy out.npy -s 2 --radius 8388608` of a 16x16 array: 2.4 s and 600 MB
  // before the fold (fuzz_cli's slow unit).
  std::vector<float> data(16 * 16, 1.0f), out(16 * 16);
  const View src = View::packed(data.data(), ElementType::f32, 16, 16), dst = View::packed(out.data(), ElementType::f32, 16, 16);
  BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  spec.radius = {1 << 23, 1 << 23, 0};
  const auto start = std::chrono::steady_clock::now();
  blur(src, dst, spec);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.5);
  for (float v : out) EXPECT_NEAR(v, 1.0f, 1e-6f);
}

}  // namespace
}  // namespace fastblur
