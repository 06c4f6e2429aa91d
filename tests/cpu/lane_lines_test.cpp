// The lane driver's passes across rows and planes (lane_lines.cpp: strips of adjacent columns)
// against its pass along x of the transposed image (lines of (row, channel) pairs gathered pixel
// by pixel): the same filter on the same samples, so the same bits, for every lane algorithm,
// every border, strips cut short at the right edge, lines shorter and longer than the padding,
// 1 to 4 channels, in place and not, 2D and 3D. A change to how either kind of pass reaches its
// samples (bench/RESULTS.md, issue 28: strips read in place) must keep them equal.
#include <gtest/gtest.h>
#include <malloc.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cpu/iir_simd.hpp"
#include "fastblur/fastblur.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

struct Image {
  std::int64_t w = 0, h = 0, d = 1;
  int c = 1;
  std::vector<float> v;
  View view() { return View::packed(v.data(), ElementType::f32, w, h, d, c); }
  float& at(std::int64_t x, std::int64_t y, std::int64_t z, int ch) {
    return v[static_cast<std::size_t>(((z * h + y) * w + x) * c + ch)];
  }
};

Image random_image(std::int64_t w, std::int64_t h, std::int64_t d, int c, std::mt19937_64& rng) {
  Image im{w, h, d, c, std::vector<float>(static_cast<std::size_t>(w * h * d * c))};
  std::uniform_real_distribution<float> u(-0.5f, 1.5f);
  for (float& x : im.v) x = u(rng);
  return im;
}

// The image with axes a and b swapped.
Image swapped(Image& im, int a, int b) {
  std::array<std::int64_t, 3> e{im.w, im.h, im.d};
  std::swap(e[static_cast<std::size_t>(a)], e[static_cast<std::size_t>(b)]);
  Image out{e[0], e[1], e[2], im.c, std::vector<float>(im.v.size())};
  for (std::int64_t z = 0; z < im.d; ++z)
    for (std::int64_t y = 0; y < im.h; ++y)
      for (std::int64_t x = 0; x < im.w; ++x) {
        std::array<std::int64_t, 3> p{x, y, z};
        std::swap(p[static_cast<std::size_t>(a)], p[static_cast<std::size_t>(b)]);
        for (int ch = 0; ch < im.c; ++ch) out.at(p[0], p[1], p[2], ch) = im.at(x, y, z, ch);
      }
  return out;
}

Image blurred(Image& src, Algorithm algorithm, Border border, std::array<double, 3> sigma) {
  BlurSpec spec;
  spec.algorithm = algorithm;
  spec.sigma = sigma;
  spec.border = {border, border, border};
  spec.cval = 0.25;
  Image out{src.w, src.h, src.d, src.c, std::vector<float>(src.v.size())};
  EXPECT_EQ(make_plan(spec, src.view()).schedule.driver, CpuDriver::lanes) << to_string(algorithm);
  blur(src.view(), out.view(), spec);
  return out;
}

// Index and value of the first float whose bits differ, or "" when all agree.
std::string first_difference(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return "sizes differ";
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0)
      return "float " + std::to_string(i) + ": " + std::to_string(a[i]) + " against " + std::to_string(b[i]);
  return "";
}

constexpr Algorithm kLaneAlgorithms[] = {Algorithm::iir, Algorithm::box, Algorithm::kawase, Algorithm::sliding_dct};

TEST(LaneLines, RowPassesInPlaceGiveTheBitsOfTheGatheredColumns) {
  auto rng = test::rng_for_test();
  const auto V = static_cast<std::int64_t>(cpu::lane_width());
  // Widths that end in a short strip (gathered lane by lane), heights longer and shorter than twice
  // the padding (iir's at sigma 2.5 is about 28 rows on each side).
  const struct { std::int64_t w, h; int c; } shapes[] = {{37, 70, 1}, {2 * V + 3, 90, 4}, {V / 2 + 1, 61, 3}, {19, 9, 2}};
  for (Algorithm algorithm : kLaneAlgorithms)
    for (Border border : test::all_borders())
      for (const auto& s : shapes) {
        SCOPED_TRACE(std::string(to_string(algorithm)) + " " + std::string(to_string(border)) + " " + std::to_string(s.w) +
                     "x" + std::to_string(s.h) + "x" + std::to_string(s.c));
        Image src = random_image(s.w, s.h, 1, s.c, rng);
        const Image both = blurred(src, algorithm, border, {1.5, 2.5, 0.0});
        // Along x, then along x of the transpose: every line gathered into a lane buffer.
        Image along_x = blurred(src, algorithm, border, {1.5, 0.0, 0.0});
        Image t = swapped(along_x, 0, 1);
        Image t_blurred = blurred(t, algorithm, border, {2.5, 0.0, 0.0});
        EXPECT_EQ(first_difference(both.v, swapped(t_blurred, 0, 1).v), "");
        // In place: the first pass gathers from the image it writes.
        BlurSpec spec;
        spec.algorithm = algorithm;
        spec.sigma = {1.5, 2.5, 0.0};
        spec.border = {border, border, border};
        spec.cval = 0.25;
        blur(src.view(), src.view(), spec);
        EXPECT_EQ(first_difference(both.v, src.v), "") << "in place";
      }
}

TEST(LaneLines, PlanePassesGiveTheBitsOfTheGatheredColumns) {
  auto rng = test::rng_for_test();
  for (Algorithm algorithm : kLaneAlgorithms)
    for (Border border : {Border::reflect, Border::wrap, Border::constant}) {
      SCOPED_TRACE(std::string(to_string(algorithm)) + " " + std::string(to_string(border)));
      Image src = random_image(21, 13, 66, 1, rng);
      const Image all = blurred(src, algorithm, border, {1.0, 1.5, 2.0});
      Image xy = blurred(src, algorithm, border, {1.0, 1.5, 0.0});
      Image t = swapped(xy, 0, 2);
      Image t_blurred = blurred(t, algorithm, border, {2.0, 0.0, 0.0});
      EXPECT_EQ(first_difference(all.v, swapped(t_blurred, 0, 2).v), "");
    }
}

// The lane buffers are kept by the calling thread from one blur to the next: allocated per call,
// they were fresh pages each time wherever the allocator hands large blocks back to the system
// (from Python: about 750 page faults a call at 1080p RGBA, a 9 ms blur taking 15-21 ms).
TEST(LaneLines, RepeatedBlursTouchNoFreshPages) {
  auto rng = test::rng_for_test();
  Image src = random_image(2048, 1536, 1, 4, rng);
  Image dst{src.w, src.h, 1, 4, std::vector<float>(src.v.size())};
  // Every block of 64 KiB or more mapped on allocation and unmapped on free, as glibc did in
  // Python's process: a blur that allocated its buffers per call would fault them in every time.
  // (Afterwards 32 MiB, the most glibc's own adaptive threshold reaches.)
  mallopt(M_MMAP_THRESHOLD, 64 * 1024);
  struct Restore {
    ~Restore() { mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024); }
  } restore;
  for (Algorithm algorithm : kLaneAlgorithms) {
    BlurSpec spec;
    spec.algorithm = algorithm;
    spec.sigma = {5.0, 5.0, 0.0};
    spec.threads = 2;
    blur(src.view(), dst.view(), spec);
    const long before = test::minor_faults();
    constexpr int kCalls = 5;
    for (int i = 0; i < kCalls; ++i) blur(src.view(), dst.view(), spec);
    const long per_call = (test::minor_faults() - before) / kCalls;
    // Without the kept buffers a 1024x768 image took 468-704 fresh pages a call, this one about
    // twice that (the lane buffers grow with the lines' length); with them none in a release
    // build, and under a sanitizer's allocator (which hands out fresh memory for the plan's small
    // allocations too) 68-166 at 1024x768.
    EXPECT_LT(per_call, 300) << to_string(algorithm);
  }
}

}  // namespace
}  // namespace fastblur
