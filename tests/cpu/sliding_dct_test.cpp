// sliding-dct: equal to the convolution with its equivalent kernel (every border, type, shape, 2D
// and 3D, in place and strided), no drift on long lines, and the Gaussian accuracy of the default
// order through the whole blur (docs/DESIGN.md metrics).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "fastblur/kernel_sliding_dct.hpp"
#include "fastblur/reference.hpp"
#include "support/convolve_reference.hpp"
#include "support/test_support.hpp"
#include "support/twins.hpp"

namespace fastblur {
namespace {

std::array<std::vector<double>, 3> equivalent_kernels(const BlurSpec& spec) {
  std::array<std::vector<double>, 3> k;
  for (int a = 0; a < 3; ++a)
    if (spec.sigma[a] > 0)
      k[a] = kernel::sliding_dct_weights(
          test::choice_parameter(spec, "sliding_dct_fit") == "fir"
              ? kernel::sliding_dct_kernel_matching_fir(spec.sigma[a], test::int_parameter(spec, "sliding_dct_order"), std::max(1, effective_radius(spec, a)))
              : kernel::sliding_dct_kernel(spec.sigma[a], test::int_parameter(spec, "sliding_dct_order")));
  return k;
}

// sliding-dct's twin: the convolution with its cosine series on the window (the contract suite runs it).
const bool kTwin = test::register_twin({Algorithm::sliding_dct, 64, [](const View& src, const View& exact, const BlurSpec& spec) {
  test::convolve_reference(src, exact, equivalent_kernels(spec), spec);
}});

// The recurrences are marginally stable: a long line (with restarts) must stay on the convolution.
TEST(SlidingDctBlur, RecurrencesDoNotDriftOnLongLines) {
  auto rng = test::rng_for_test();
  for (double sigma : {1.7, 9.3, 150.0}) {
    const std::int64_t n = 16384;
    auto src = test::make_buffer(ElementType::f64, n, 1, 1, 1);
    test::fill_random(src.view, rng);
    for (std::int64_t x = 0; x < n; ++x) test::set(src.view, x, 0, 0, 0, 1000.0 + test::get(src.view, x, 0, 0, 0));
    auto out = test::make_buffer(ElementType::f64, n, 1, 1, 1);
    BlurSpec spec;
    spec.sigma = {sigma, 0, 0};
    spec.algorithm = Algorithm::sliding_dct;
    blur(src.view, out.view, spec);
    auto exact = test::make_buffer(ElementType::f64, n, 1, 1, 1);
    test::convolve_reference(src.view, exact.view, equivalent_kernels(spec), spec);
    double worst = 0.0;
    for (std::int64_t x = 0; x < n; ++x)
      worst = std::max(worst, std::abs(test::get(out.view, x, 0, 0, 0) - test::get(exact.view, x, 0, 0, 0)));
    std::printf("[ measured ] sliding-dct sigma %g, 16384 samples near 1000: worst drift %.3g\n", sigma, worst);
    EXPECT_LE(worst, 1e-9 * 1000) << sigma;
  }
}

// Through the whole blur, at the default order: the catalogue's bound (kernel_sliding_dct.hpp),
// better than Deriche's L1 6e-4 (Getreuer, IPOL 2013) at every sigma.
TEST(SlidingDctBlur, AccuracyAgainstTheGaussianMeetsTheCatalogueBounds) {
  for (double sigma : {1.0, 2.0, 5.0, 10.0, 20.0, 50.0}) {
    BlurSpec spec;
    spec.algorithm = Algorithm::sliding_dct;
    const auto m = analysis::measure_impulse(spec, sigma, sigma <= 20);
    std::printf("[ measured ] sliding-dct sigma %4.0f: effective sigma %.6f, max error %.2e, L1 %.2e, anisotropy "
                "%.4f, 2D max error %.2e\n", sigma, m.effective_sigma, m.max_error, m.l1_error, m.anisotropy,
                m.max_error_2d);
    EXPECT_NEAR(m.effective_sigma, sigma, 2e-4 * sigma);
    EXPECT_LE(m.max_error, 7e-5) << sigma;
    EXPECT_LE(m.l1_error, 1.4e-4) << sigma;
    if (sigma <= 20) {
      EXPECT_LE(std::abs(m.anisotropy), 5e-3) << sigma;
      EXPECT_LE(m.max_error_2d, 1.5e-4) << sigma;
    }
  }
}

// Fitted to fir's kernel, the series is the exact blur: within 1e-5 of fir's float64 reference
// (relative to the data's range) on random data, every border, 2D RGBA and 3D, float and 8-bit, in
// place and not.
TEST(SlidingDctBlur, TheSeriesOfFirsKernelIsTheExactBlur) {
  auto rng = test::rng_for_test();
  struct Case {
    std::int64_t w, h, d;
    int channels;
    double sigma;
  };
  const Case cases[] = {Case{97, 61, 1, 4, 6.3}, Case{300, 7, 1, 1, 21.0}, Case{23, 19, 17, 1, 2.9}, Case{41, 260, 1, 3, 50.0}};
  for (int ci = 0; ci < 4; ++ci)
    for (int bi = 0; bi < 5; ++bi)
      for (int ti = 0; ti < 4; ++ti) {  // f32 and u8, in place and not
        // FASTBLUR_TEST_SCALE=small: each (border, type and placement) on one of the four cases,
        // each case still with every border, type and placement.
        if (!test::grid_cell(bi, ti, ci, 4)) continue;
        const Case c = cases[ci];
        const Border b = test::all_borders()[bi];
        const ElementType t = ti % 2 ? ElementType::u8 : ElementType::f32;
        const bool in_place = ti >= 2;
        BlurSpec spec;
        spec.sigma = {c.sigma, c.sigma, c.d > 1 ? c.sigma : 0.0};
        spec.border = {b, b, b};
        spec.cval = 0.3;
        spec.algorithm = Algorithm::sliding_dct;
        set_parameter(spec, "sliding_dct_fit", std::string("fir"));
        set_parameter(spec, "sliding_dct_order", static_cast<std::int64_t>(6));
        auto src = test::make_buffer(t, c.w, c.h, c.d, c.channels);
        test::fill_random(src.view, rng);
        auto ref = test::make_buffer(ElementType::f64, c.w, c.h, c.d, c.channels);
        BlurSpec fir = spec;
        fir.algorithm = Algorithm::fir;
        reference::separable_blur(src.view, ref.view, fir);
        auto out = test::make_buffer(t, c.w, c.h, c.d, c.channels);
        if (in_place) {
          std::memcpy(out.bytes.data(), src.bytes.data(), src.bytes.size());
          blur(out.view, out.view, spec);
        } else {
          blur(src.view, out.view, spec);
        }
        const double range = t == ElementType::u8 ? 255.0 : 2.0;  // fill_random: floats in [-0.5, 1.5]
        double worst = 0.0;
        for (std::int64_t z = 0; z < c.d; ++z)
          for (std::int64_t y = 0; y < c.h; ++y)
            for (std::int64_t x = 0; x < c.w; ++x)
              for (int k = 0; k < c.channels; ++k) {
                const double want = test::get(ref.view, x, y, z, k);
                const double got = test::get(out.view, x, y, z, k);
                // 8-bit outputs are rounded: within half a level of the exact result, plus 1e-5.
                const double err = t == ElementType::u8 ? std::max(0.0, std::abs(got - want) - 0.5) : std::abs(got - want);
                worst = std::max(worst, err / range);
              }
        EXPECT_LE(worst, 1e-5) << c.w << "x" << c.h << "x" << c.d << " sigma " << c.sigma << " border "
                               << static_cast<int>(b) << " type " << to_string(t) << (in_place ? " in place" : "");
        }
}

TEST(SlidingDctBlur, BadOrderIsRejected) {
  std::vector<float> px(16, 0.5f);
  const View v = View::packed(px.data(), ElementType::f32, 4, 4);
  BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  spec.algorithm = Algorithm::sliding_dct;
  test::set_unchecked(spec, "sliding_dct_order", std::int64_t{1});  // what blur() itself refuses
  EXPECT_THROW(blur(v, v, spec), InvalidArgument);
  test::set_unchecked(spec, "sliding_dct_order", std::int64_t{9});
  EXPECT_THROW(blur(v, v, spec), InvalidArgument);
  for (float p : px) EXPECT_EQ(p, 0.5f);  // nothing written
}

}  // namespace
}  // namespace fastblur
