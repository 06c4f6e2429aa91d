// The two references agree: separable f64 equals the direct non-separable sum.
#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace fastblur {
namespace {

TEST(Reference, SeparableEqualsNaive) {
  auto rng = test::rng_for_test();
  for (auto border : test::all_borders())
    for (const auto& sigma : {std::array<double, 3>{1.3, 0.7, 0.0}, std::array<double, 3>{2.0, 2.0, 1.1},
                              std::array<double, 3>{6.0, 0.0, 3.0}}) {
      auto src = test::make_buffer(ElementType::f64, 9, 7, sigma[2] > 0 ? 5 : 1, 2);
      test::fill_random(src.view, rng);
      auto a = test::make_buffer(ElementType::f64, 9, 7, src.view.depth(), 2);
      auto b = test::make_buffer(ElementType::f64, 9, 7, src.view.depth(), 2);
      BlurSpec spec;
      spec.sigma = sigma;
      spec.with_border(border);
      spec.cval = -0.7;
      reference::separable_blur(src.view, a.view, spec);
      reference::naive_blur(src.view, b.view, spec);
      for (std::int64_t z = 0; z < src.view.depth(); ++z)
        for (std::int64_t y = 0; y < 7; ++y)
          for (std::int64_t x = 0; x < 9; ++x)
            for (int c = 0; c < 2; ++c)
              ASSERT_NEAR(test::get(a.view, x, y, z, c), test::get(b.view, x, y, z, c), 1e-13)
                  << to_string(border) << " at " << x << "," << y << "," << z;
    }
}

TEST(Reference, KnownValues) {
  // A unit impulse blurred with reflect far from the edges gives back the kernel.
  auto src = test::make_buffer(ElementType::f64, 41, 1, 1, 1);
  test::set(src.view, 20, 0, 0, 0, 1.0);
  auto out = test::make_buffer(ElementType::f64, 41, 1, 1, 1);
  BlurSpec spec;
  spec.sigma = {2.0, 0.0, 0.0};
  reference::separable_blur(src.view, out.view, spec);
  const auto w = kernel::gaussian_weights(2.0, 8);
  for (int k = -8; k <= 8; ++k) EXPECT_DOUBLE_EQ(test::get(out.view, 20 + k, 0, 0, 0), w[k + 8]);
  EXPECT_EQ(test::get(out.view, 20 + 9, 0, 0, 0), 0.0);
}

}  // namespace
}  // namespace fastblur
