// dual-kawase's 2D impulse response from the kernel layer (what the planner predicts the chain's 2D
// error from) against the blur of an impulse through the public API: the same response, at the
// executor's coordinates to within rounding (the same bits on this build), at any other origin to
// within rounding; whole mass; bad input.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "algorithms/dual_kawase.hpp"
#include "fastblur/blur.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel_dual_kawase.hpp"

namespace fastblur::kernel {
namespace {

struct Case {
  double sigma_x, sigma_y;
  int levels;     // 0: chosen for sigma
  double offset;  // 0: solved
  int width, height, x, y;
};

BlurSpec spec_of(const Case& c) {
  BlurSpec s;
  s.algorithm = Algorithm::dual_kawase;
  s.sigma = {c.sigma_x, c.sigma_y, 0.0};
  s.with_border(Border::constant);
  s.cval = 0.0;
  if (c.levels) set_parameter(s, "dual_kawase_levels", std::int64_t{c.levels});
  if (c.offset > 0.0) set_parameter(s, "dual_kawase_offset", c.offset);
  return s;
}

// The blur of a unit impulse at (x, y) of a float64 image, constant border 0.
std::vector<double> blurred_impulse(const Case& c) {
  std::vector<double> img(static_cast<std::size_t>(c.width) * c.height, 0.0);
  img[static_cast<std::size_t>(c.y) * c.width + c.x] = 1.0;
  const View v = View::packed(img.data(), ElementType::f64, c.width, c.height);
  blur(v, v, spec_of(c));
  return img;
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

const Case kCases[] = {
    {1.5, 1.5, 0, 0.0, 41, 41, 20, 20},    // one level
    {3.0, 3.0, 0, 0.0, 53, 47, 29, 17},    // two levels, odd phases, a rectangle
    {8.0, 5.0, 0, 0.0, 121, 91, 63, 40},   // per-axis offsets
    {20.0, 20.0, 0, 0.0, 257, 257, 128, 128},
    {6.0, 6.0, 3, 1.0, 97, 97, 45, 51},    // Bjorge's offset, levels named
    {20.0, 12.0, 2, 0.0, 150, 150, 75, 74},  // few levels, large offsets
    {8.0, 8.0, 0, 0.0, 60, 50, 3, 46},     // near a corner: the response leaves the image
};

TEST(DualKawaseImpulseResponse, IsTheBlurOfAnImpulse) {
  for (const Case& c : kCases) {
    const DualKawaseSchedule s = algo::dual_kawase_schedule_for(spec_of(c));
    const std::array<std::int64_t, 2> origin{algo::dual_kawase_padding(c.width, s.levels, s.offset[0]).before,
                                             algo::dual_kawase_padding(c.height, s.levels, s.offset[1]).before};
    const std::vector<double> blurred = blurred_impulse(c);
    const std::vector<double> h = dual_kawase_impulse_response(s, c.width, c.height, c.x, c.y, origin);
    // The executor's arithmetic at its coordinates: the same bits unless a compiler fuses or orders
    // the two differently.
    EXPECT_LE(max_difference(h, blurred), 1e-15) << c.sigma_x << " " << c.sigma_y << " at " << c.x << "," << c.y;
    // Elsewhere in the padded plane (a multiple of the block): the fetches' fractions round differently.
    const std::int64_t block = std::int64_t{1} << s.levels;
    const std::vector<double> h0 = dual_kawase_impulse_response(s, c.width, c.height, c.x, c.y);
    const std::vector<double> far = dual_kawase_impulse_response(s, c.width, c.height, c.x, c.y, {1000 * block, 7 * block});
    EXPECT_LE(max_difference(h0, blurred), 1e-13);
    EXPECT_LE(max_difference(far, blurred), 1e-13);
  }
}

TEST(DualKawaseImpulseResponse, HoldsTheWholeMassWhereTheImageHoldsTheResponse) {
  for (double sigma : {1.5, 4.0, 15.0}) {
    const DualKawaseSchedule s = dual_kawase_schedule(sigma, sigma);
    const int half = static_cast<int>(std::ceil(8 * sigma)) + 8, n = 2 * half + 1;
    double sum = 0.0;
    for (double v : dual_kawase_impulse_response(s, n, n, half, half)) sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-12) << sigma;
  }
}

TEST(DualKawaseImpulseResponse, RefusesBadInput) {
  const DualKawaseSchedule s = dual_kawase_schedule(5.0, 5.0);
  const std::int64_t block = std::int64_t{1} << s.levels;
  EXPECT_THROW(dual_kawase_impulse_response(s, 0, 9, 0, 0), InvalidArgument);
  EXPECT_THROW(dual_kawase_impulse_response(s, 9, 9, 9, 4), InvalidArgument);
  EXPECT_THROW(dual_kawase_impulse_response(s, 9, 9, 4, -1), InvalidArgument);
  EXPECT_THROW(dual_kawase_impulse_response(s, 9, 9, 4, 4, {block + 1, 0}), InvalidArgument);
  EXPECT_THROW(dual_kawase_impulse_response(s, 9, 9, 4, 4, {0, -block}), InvalidArgument);
  EXPECT_THROW(dual_kawase_impulse_response(DualKawaseSchedule{}, 9, 9, 4, 4), InvalidArgument);  // no levels
}

}  // namespace
}  // namespace fastblur::kernel
