// Pieces with halos (tiling/pieces.hpp) are backend-neutral: cutting an image into pieces with the
// plan's support as halo, blurring each piece on the CPU and keeping its interior gives the whole
// blur - bit-identical for fir (the same sums; constant borders to a float rounding), to the tail the
// plan's support leaves out for the recursive filters. GPU tiles, CLI bands and dask chunks rest on this.
#include <gtest/gtest.h>

#include "support/test_support.hpp"
#include "tiling/pieces.hpp"

namespace fastblur {
namespace {

// Blurs `src` piece by piece (interiors of `tile`) into `dst` with spec, halos from the plan.
void blur_in_pieces(const View& src, const View& dst, const BlurSpec& spec, std::array<std::int64_t, 3> tile) {
  const Plan whole = make_plan(spec, src);
  std::array<std::int64_t, 3> halo{};
  std::int64_t align = 1;
  for (const AxisPlan& a : whole.axes) align = std::max(align, a.align);
  for (std::size_t a = 0; a < 3; ++a) halo[a] = (whole.axes[a].support + align - 1) / align * align;
  for (const tiling::Piece& p : tiling::pieces(src.extent, tile, halo)) {
    const auto e = p.extent();
    std::vector<float> in(static_cast<std::size_t>(e[0] * e[1] * e[2] * src.channels)), out(in.size());
    tiling::gather(src, p, spec.border, spec.cval, in.data());
    const View iv = View::packed(in.data(), ElementType::f32, e[0], e[1], e[2], src.channels);
    const View ov = View::packed(out.data(), ElementType::f32, e[0], e[1], e[2], src.channels);
    BlurSpec piece = spec;
    for (std::size_t a = 0; a < 3; ++a)
      if (p.halo[a] > 0) piece.border[a] = Border::nearest;  // beyond the halo nothing reaches the interior
    blur(iv, ov, piece);
    tiling::put(out.data(), p, dst);
  }
}

TEST(Pieces, CoverTheDataOnceWithHalosWhereCut) {
  const auto ps = tiling::pieces({100, 37, 5}, {32, 37, 2}, {7, 3, 2});
  std::vector<int> covered(100 * 37 * 5, 0);
  for (const auto& p : ps) {
    for (std::size_t a = 0; a < 3; ++a) EXPECT_EQ(p.halo[a], a == 1 ? 0 : (a == 0 ? 7 : 2));
    for (std::int64_t z = p.lo[2]; z < p.hi[2]; ++z)
      for (std::int64_t y = p.lo[1]; y < p.hi[1]; ++y)
        for (std::int64_t x = p.lo[0]; x < p.hi[0]; ++x) ++covered[static_cast<std::size_t>((z * 37 + y) * 100 + x)];
  }
  for (int c : covered) ASSERT_EQ(c, 1);
  EXPECT_EQ(ps.size(), 4u * 3u);
  const auto tile = tiling::choose_tile({1000, 800, 1}, {10, 10, 0}, 4, [](std::array<std::int64_t, 3> e) {
    return e[0] * e[1] <= 300 * 300;
  });
  EXPECT_EQ(tile[0] % 4, 0);
  EXPECT_LE((tile[0] + 20) * (tile[1] + 20), 300 * 300);
  EXPECT_THROW(tiling::choose_tile({100, 100, 1}, {60, 60, 0}, 1, [](std::array<std::int64_t, 3> e) { return e[0] < 50; }),
               Unsupported);
}

TEST(Pieces, BlurredPieceByPieceEqualTheWholeOnTheCpu) {
  auto rng = test::rng_for_test();
  struct Case {
    Algorithm algorithm;
    double tolerance;
  };
  // fir with a radius beyond every axis (folded onto the border's reads, its support the whole
  // axis): a piece's window, the piece and a whole axis of halo read through the border, folds over
  // its own length - the same sums grouped differently, a float rounding or two away.
  for (const Case c : {Case{Algorithm::fir, 0.0}, Case{Algorithm::box, 2e-6}, Case{Algorithm::iir, 5e-6},
                       Case{Algorithm::sliding_dct, 2e-6}, Case{Algorithm::downsample, 2e-6}, Case{Algorithm::fir, -1.0}})
    for (Border border : test::all_borders()) {
      test::Buffer src = test::make_buffer(ElementType::f32, 83, 59, 7, 2);
      test::fill_random(src.view, rng);
      BlurSpec spec;
      spec.sigma = {3.1, 2.4, 1.3};
      spec.with_border(border);
      spec.cval = 0.3;
      spec.algorithm = c.algorithm;
      if (c.tolerance < 0.0) spec.radius = {500, 500, 500};
      test::Buffer whole = test::make_buffer(ElementType::f32, 83, 59, 7, 2), pieces = whole;
      pieces.view.data = pieces.bytes.data();
      blur(src.view, whole.view, spec);
      blur_in_pieces(src.view, pieces.view, spec, {24, 20, 4});
      double worst = 0.0;
      std::string where;
      for (std::int64_t z = 0; z < 7; ++z)
        for (std::int64_t y = 0; y < 59; ++y)
          for (std::int64_t x = 0; x < 83; ++x)
            for (int ch = 0; ch < 2; ++ch) {
              const double d = std::abs(test::get(whole.view, x, y, z, ch) - test::get(pieces.view, x, y, z, ch));
              if (d > worst) worst = d, where = std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z);
            }
      // constant: a piece's halo beyond the image holds cval and is filtered along x like data, where
      // the whole blur's later passes read cval itself - the sum of float weights times cval, a float
      // rounding away. Every other border is the same sums, bit for bit.
      const double allowed = (c.tolerance < 0.0 ? 2.4e-7 : c.tolerance) + (border == Border::constant ? 2.4e-7 : 0.0);
      EXPECT_LE(worst, allowed) << to_string(c.algorithm) << " " << to_string(border) << " at " << where;
    }
}

}  // namespace
}  // namespace fastblur
