#include <gtest/gtest.h>

#include <cmath>

#include "fastblur/analysis.hpp"
#include "fastblur/error.hpp"

namespace fastblur::analysis {
namespace {

TEST(TestScene, HasTheWhiteBlockAndTheHdrSpot) {
  auto s = make_test_scene(512, 512);
  const auto at = [&](int x, int y, int c) { return s.rgba[(static_cast<std::size_t>(y) * 512 + x) * 4 + c]; };
  // The 12x12 block at (374..385, 444..455) on black.
  int white = 0;
  for (int y = 430; y < 470; ++y)
    for (int x = 360; x < 400; ++x) white += at(x, y, 0) == 1.0f;
  EXPECT_EQ(white, 144);
  EXPECT_EQ(at(373, 450, 1), 0.0f);
  EXPECT_EQ(at(374, 450, 1), 1.0f);
  EXPECT_EQ(at(470, 240, 0), 64.0f);
  EXPECT_EQ(make_test_scene(512, 512).rgba, s.rgba);  // deterministic
  EXPECT_THROW(make_test_scene(8, 8), InvalidArgument);
}

TEST(ImageError, PsnrAndMaxError) {
  float a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0.5f};
  const auto e = compare(View::packed(a, ElementType::f32, 4, 1), View::packed(b, ElementType::f32, 4, 1), 1.0);
  EXPECT_DOUBLE_EQ(e.max_abs, 0.5);
  EXPECT_DOUBLE_EQ(e.mean_abs, 0.125);
  EXPECT_NEAR(e.psnr_db, 10 * std::log10(1.0 / (0.25 / 4)), 1e-12);
}

}  // namespace
}  // namespace fastblur::analysis
