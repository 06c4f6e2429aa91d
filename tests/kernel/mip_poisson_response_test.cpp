// mip-poisson's 2D impulse response from the kernel layer (what the planner predicts a frame's 2D error
// from) against the blur of an impulse through the public API: the same response, at the executor's
// coordinates to within rounding (the same bits on this build), at any other origin to within
// rounding; the frame moves it; bad input.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "algorithms/mip_poisson.hpp"
#include "fastblur/blur.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel_mip_poisson.hpp"

namespace fastblur::kernel {
namespace {

struct Case {
  double sigma_x, sigma_y;
  int samples;  // 0: the default
  int frame;
  int width, height, x, y;
};

BlurSpec spec_of(const Case& c) {
  BlurSpec s;
  s.algorithm = Algorithm::mip_poisson;
  s.sigma = {c.sigma_x, c.sigma_y, 0.0};
  s.with_border(Border::constant);
  s.cval = 0.0;
  if (c.samples) set_parameter(s, "mip_poisson_samples", std::int64_t{c.samples});
  set_parameter(s, "mip_poisson_frame", std::int64_t{c.frame});
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
    {0.8, 0.8, 0, 0, 21, 21, 10, 10},
    {3.0, 3.0, 0, 0, 53, 47, 29, 17},     // a rectangle, the impulse off centre
    {9.0, 4.0, 16, 5, 121, 91, 63, 40},   // per-axis scales, few samples, another frame
    {20.0, 20.0, 64, -3, 257, 257, 128, 128},
    {6.0, 6.0, 0, 2, 60, 50, 3, 46},      // near a corner: the response leaves the image
};

TEST(MipPoissonImpulseResponse, IsTheBlurOfAnImpulse) {
  for (const Case& c : kCases) {
    const MipPoissonSchedule s = algo::mip_poisson_schedule_for(spec_of(c));
    const std::array<std::int64_t, 2> origin{algo::mip_poisson_padding(c.width, s).before,
                                             algo::mip_poisson_padding(c.height, s).before};
    const std::vector<double> blurred = blurred_impulse(c);
    const std::vector<double> h = mip_poisson_impulse_response(s, c.frame, c.width, c.height, c.x, c.y, origin);
    // The executor's arithmetic at its coordinates: the same bits unless a compiler fuses or orders
    // the two differently.
    EXPECT_LE(max_difference(h, blurred), 1e-15) << c.sigma_x << " " << c.sigma_y << " at " << c.x << "," << c.y;
    // Elsewhere in the padded plane (a multiple of the deepest texel): positions round differently.
    const std::int64_t block = std::int64_t{1} << s.max_level;
    const std::vector<double> h0 = mip_poisson_impulse_response(s, c.frame, c.width, c.height, c.x, c.y);
    const std::vector<double> far =
        mip_poisson_impulse_response(s, c.frame, c.width, c.height, c.x, c.y, {1000 * block, 7 * block});
    EXPECT_LE(max_difference(h0, blurred), 1e-12);
    EXPECT_LE(max_difference(far, blurred), 1e-12);
  }
}

TEST(MipPoissonImpulseResponse, TheFrameMovesTheNoise) {
  const MipPoissonSchedule s = mip_poisson_schedule(4.0, 4.0);
  const std::vector<double> a = mip_poisson_impulse_response(s, 0, 41, 41, 20, 20);
  const std::vector<double> b = mip_poisson_impulse_response(s, 1, 41, 41, 20, 20);
  EXPECT_GT(max_difference(a, b), 1e-4);
}

TEST(MipPoissonImpulseResponse, RefusesBadInput) {
  const MipPoissonSchedule s = mip_poisson_schedule(5.0, 5.0);
  const std::int64_t block = std::int64_t{1} << s.max_level;
  EXPECT_THROW(mip_poisson_impulse_response(s, 0, 0, 9, 0, 0), InvalidArgument);
  EXPECT_THROW(mip_poisson_impulse_response(s, 0, 9, 9, 9, 4), InvalidArgument);
  EXPECT_THROW(mip_poisson_impulse_response(s, 0, 9, 9, 4, -1), InvalidArgument);
  if (block > 1) {
    EXPECT_THROW(mip_poisson_impulse_response(s, 0, 9, 9, 4, 4, {block + 1, 0}), InvalidArgument);
  }
  EXPECT_THROW(mip_poisson_impulse_response(s, 0, 9, 9, 4, 4, {0, -block}), InvalidArgument);
  EXPECT_THROW(mip_poisson_impulse_response(MipPoissonSchedule{}, 0, 9, 9, 4, 4), InvalidArgument);  // no samples
}

}  // namespace
}  // namespace fastblur::kernel
