// fft against the double-precision reference: every border mode, type, 2D and 3D, awkward sizes,
// sigma far beyond the image, anisotropic sigma, explicit radii, strided and in-place views, many
// threads at once; and the kernel eigenvalues each border's transform multiplies by.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numbers>
#include <thread>

#include "cpu/fft_spectrum.hpp"
#include "cpu/fftw_plans.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {
using test::Buffer;
using test::make_buffer;

int taps_of(const BlurSpec& spec) {
  int taps = 1;
  for (int a = 0; a < 3; ++a) taps *= 2 * effective_radius(spec, a) + 1;
  return taps;
}

// How fft agreed with the reference on one case: the worst error over the tolerance (<= 1 passes),
// and the worst |error| as a fraction of the type's range.
struct Agreement {
  double ratio;
  double error;
};

// The worst |error| per element type over a test's cases, printed at its end.
struct WorstErrors {
  std::map<ElementType, double> by_type;
  void add(ElementType t, const Agreement& a) { by_type[t] = std::max(by_type[t], a.error); }
  void print(const char* what) const {
    for (const auto& [type, e] : by_type)
      std::printf("[ measured ] fft vs reference, %s, %s: worst |error| %.3g (%.3g of the range 0..%g)\n", what,
                  std::string(to_string(type)).c_str(), e * test::type_scale(type), e, test::type_scale(type));
  }
};

// Blurs random data with fft and with the reference.
Agreement check_case(std::mt19937_64& rng, ElementType type, std::int64_t w, std::int64_t h, std::int64_t d, int c,
                  BlurSpec spec, int pad_px = 0, int pad_row = 0, bool flip = false, std::string* where = nullptr) {
  spec.algorithm = Algorithm::fft;
  Buffer src = make_buffer(type, w, h, d, c, pad_px, pad_row, flip);
  test::fill_random(src.view, rng);
  Buffer out = make_buffer(type, w, h, d, c, pad_px, pad_row, flip);
  blur(src.view, out.view, spec);
  Buffer exact = make_buffer(ElementType::f64, w, h, d, c);
  reference::separable_blur(src.view, exact.view, spec);
  double worst = 0.0;
  for (std::int64_t z = 0; z < d; ++z)
    for (std::int64_t y = 0; y < h; ++y)
      for (std::int64_t x = 0; x < w; ++x)
        for (int k = 0; k < c; ++k) {
          double e = test::get(exact.view, x, y, z, k);
          if (is_integer(type)) e = std::clamp(e, 0.0, test::type_scale(type));
          worst = std::max(worst, std::abs(test::get(out.view, x, y, z, k) - e) / test::type_scale(type));
        }
  return {test::worst_ratio(out.view, exact.view, taps_of(spec), where), worst};
}

// lambda_k = sum_{j=-r..r} w_j cos(2 pi k j / period), summed directly.
double direct_eigenvalue(const std::vector<double>& half, std::int64_t period, std::int64_t k) {
  double s = half[0];
  for (std::size_t j = 1; j < half.size(); ++j)
    s += 2.0 * half[j] *
         std::cos(2.0 * std::numbers::pi * static_cast<double>((k * static_cast<std::int64_t>(j)) % period) /
                  static_cast<double>(period));
  return s;
}

TEST(FftSpectrum, FoldingKeepsTheSumAndWrapsEveryTap) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> sd(0.3, 60.0);
  std::uniform_int_distribution<std::int64_t> pd(1, 40);
  for (int trial = 0; trial < 50; ++trial) {
    const double sigma = sd(rng);
    const int r = kernel::radius_from_truncate(sigma, 4.0);
    const std::vector<double> w = kernel::gaussian_weights(sigma, r);
    const std::vector<double> half(w.begin() + r, w.end());
    const std::int64_t period = pd(rng);
    const std::vector<double> folded = cpu::fold_symmetric_kernel(half, period);
    ASSERT_EQ(folded.size(), static_cast<std::size_t>(period));
    std::vector<double> expect(static_cast<std::size_t>(period), 0.0);
    for (int j = -r; j <= r; ++j) expect[static_cast<std::size_t>(((j % period) + period) % period)] += w[static_cast<std::size_t>(j + r)];
    double sum = 0.0;
    for (std::int64_t m = 0; m < period; ++m) {
      // Each entry sums about (2r + 1) / period taps, in a different order than `expect`.
      ASSERT_NEAR(folded[static_cast<std::size_t>(m)], expect[static_cast<std::size_t>(m)],
                  2.3e-16 * (2.0 + (2.0 * r + 1.0) / static_cast<double>(period)))
          << "m " << m;
      ASSERT_NEAR(folded[static_cast<std::size_t>(m)], folded[static_cast<std::size_t>((period - m) % period)],
                  2.3e-16 * (2.0 + (2.0 * r + 1.0) / static_cast<double>(period)));
      sum += folded[static_cast<std::size_t>(m)];
    }
    ASSERT_NEAR(sum, 1.0, 1e-14) << "sigma " << sigma << " period " << period;
  }
}

// The eigenvalues each border uses: wrap on period n, reflect on 2n, mirror on 2n-2 (the first n of
// each), and the cut kernel of nearest/constant on the padded length; r below and far above n.
TEST(FftSpectrum, EigenvaluesEqualTheDirectCosineSums) {
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> sd(0.3, 80.0);
  std::uniform_int_distribution<std::int64_t> nd(2, 97);
  double worst = 0.0;
  for (int trial = 0; trial < 60; ++trial) {
    const double sigma = sd(rng);
    const int r = kernel::radius_from_truncate(sigma, 4.0);
    const std::vector<double> w = kernel::gaussian_weights(sigma, r);
    const std::vector<double> half(w.begin() + r, w.end());
    const std::int64_t n = nd(rng);
    for (std::int64_t period : {n, 2 * n, 2 * n - 2, cpu::fftw_fast_length(n + std::min<std::int64_t>(r, n - 1))}) {
      const std::vector<double> lambda = cpu::symmetric_kernel_spectrum(half, period);
      ASSERT_EQ(lambda.size(), static_cast<std::size_t>(period / 2 + 1));
      for (std::int64_t k = 0; k <= period / 2; ++k) {
        const double e = std::abs(lambda[static_cast<std::size_t>(k)] - direct_eigenvalue(half, period, k));
        worst = std::max(worst, e);
        ASSERT_LE(e, 1e-14) << "sigma " << sigma << " r " << r << " period " << period << " k " << k;
      }
      ASSERT_NEAR(lambda[0], 1.0, 1e-14);  // the kernel sums to 1
    }
  }
  std::printf("[ measured ] eigenvalues vs direct cosine sums: worst difference %.2e\n", worst);
}

TEST(FftSpectrum, FastLengthsHaveOnlySmallPrimeFactors) {
  const std::pair<std::int64_t, std::int64_t> cases[] = {{0, 1}, {1, 1}, {11, 12}, {13, 14}, {17, 18}, {97, 98},
                                                         {121, 125}, {1031, 1050}, {4097, 4116}};
  for (auto [in, out] : cases) EXPECT_EQ(cpu::fftw_fast_length(in), out) << in;
}

TEST(Fft, TwoDimensionalEveryTypeBorderAndAwkwardSize) {
  auto rng = test::rng_for_test();
  struct Size { std::int64_t w, h; };
  const Size sizes[] = {{1, 1}, {1, 17}, {23, 1}, {2, 2}, {7, 13}, {31, 29}, {64, 3}, {97, 89}};
  const double sigmas[] = {0.3, 1.0, 2.5, 7.0, 40.0};
  std::uniform_real_distribution<double> cv(-1.0, 2.0);
  WorstErrors worst;
  // FASTBLUR_TEST_SCALE=small: each (size, sigma) with a Latin square of types x borders, so every
  // (type, border, size) still runs, with one of the sigmas.
  for (int ti = 0; ti < static_cast<int>(test::all_types().size()); ++ti)
    for (int bi = 0; bi < static_cast<int>(test::all_borders().size()); ++bi)
      for (int si = 0; si < static_cast<int>(std::size(sizes)); ++si)
        for (int gi = 0; gi < static_cast<int>(std::size(sigmas)); ++gi)
          for (int c : {1, 3}) {
            if (!test::grid_cell(ti, bi, si * static_cast<int>(std::size(sigmas)) + gi)) continue;
            const ElementType type = test::all_types()[ti];
            const Border border = test::all_borders()[bi];
            const auto& sz = sizes[si];
            const double sigma = sigmas[gi];
            BlurSpec spec = BlurSpec::isotropic_2d(sigma).with_border(border);
            spec.cval = cv(rng) * test::type_scale(type);
            std::string where;
            const Agreement a = check_case(rng, type, sz.w, sz.h, 1, c, spec, 0, 0, false, &where);
            worst.add(type, a);
            ASSERT_LE(a.ratio, 1.0) << to_string(type) << " " << to_string(border) << " " << sz.w << "x" << sz.h << " c" << c
                              << " sigma " << sigma << " at " << where;
          }
  worst.print("2D");
}

TEST(Fft, ThreeDimensionalAnisotropic) {
  auto rng = test::rng_for_test();
  struct Case { std::int64_t w, h, d; double sx, sy, sz; };
  const Case cases[] = {{1, 1, 1, 1, 1, 1},        {5, 1, 7, 1.5, 2.0, 0.8}, {7, 11, 13, 1.2, 0.0, 2.7},
                        {17, 3, 5, 0.5, 3.0, 1.0}, {6, 5, 4, 20, 20, 20},    {9, 8, 11, 0.0, 0.0, 1.7},
                        {13, 2, 19, 9.0, 0.7, 30.0}};
  WorstErrors worst;
  for (auto type : test::all_types())
    for (auto border : test::all_borders())
      for (const auto& k : cases)
        for (int c : {1, 2}) {
          BlurSpec spec;
          spec.sigma = {k.sx, k.sy, k.sz};
          spec.with_border(border);
          spec.cval = 0.25 * test::type_scale(type);
          std::string where;
          const Agreement a = check_case(rng, type, k.w, k.h, k.d, c, spec, 0, 0, false, &where);
          worst.add(type, a);
          ASSERT_LE(a.ratio, 1.0) << to_string(type) << " " << to_string(border) << " " << k.w << "x" << k.h << "x" << k.d
                            << " at " << where;
        }
  worst.print("3D");
}

TEST(Fft, SigmaFarLargerThanTheImage) {
  auto rng = test::rng_for_test();
  WorstErrors worst;
  for (auto type : test::all_types())
    for (auto border : test::all_borders()) {
      BlurSpec spec = BlurSpec::isotropic_2d(500.0).with_border(border);
      spec.cval = 0.3 * test::type_scale(type);
      std::string where;
      const Agreement a = check_case(rng, type, 13, 5, 1, 2, spec, 0, 0, false, &where);
      worst.add(type, a);
      ASSERT_LE(a.ratio, 1.0) << to_string(type) << " " << to_string(border) << " at " << where;
    }
  worst.print("sigma 500 on 13x5");
}

TEST(Fft, PerAxisBordersTruncateAndExplicitRadius) {
  auto rng = test::rng_for_test();
  std::uniform_int_distribution<int> bi(0, 4), ri(0, 60), si(1, 40), pick(0, 9);
  std::uniform_real_distribution<double> su(0.0, 12.0), tu(0.5, 5.0);
  for (int trial = 0; trial < 60; ++trial) {
    BlurSpec spec;
    for (int a = 0; a < 3; ++a) {
      spec.sigma[a] = su(rng);
      spec.border[a] = test::all_borders()[bi(rng)];
      if (pick(rng) < 4) spec.radius[a] = ri(rng);  // often beyond the line
    }
    spec.truncate = tu(rng);
    spec.cval = 0.5;
    const auto type = test::all_types()[trial % 5];
    std::string where;
    const Agreement a = check_case(rng, type, si(rng), si(rng), 1 + si(rng) / 8, 1 + trial % 4, spec, 0, 0, false, &where);
    ASSERT_LE(a.ratio, 1.0) << "trial " << trial << " " << to_string(type) << " at " << where;
  }
}

TEST(Fft, StridedAndFlippedViews) {
  auto rng = test::rng_for_test();
  for (auto type : test::all_types())
    for (auto border : test::all_borders())
      for (bool flip : {false, true}) {
        BlurSpec spec;
        spec.sigma = {1.7, 12.2, 1.1};
        spec.with_border(border);
        std::string where;
        const Agreement a = check_case(rng, type, 19, 11, 3, 3, spec, 5, 7, flip, &where);
        ASSERT_LE(a.ratio, 1.0) << to_string(type) << " " << to_string(border) << " flip " << flip << " at " << where;
      }
}

// Blurs of different shapes running at once (creating and sharing FFTW plans) give what each
// gives alone, whatever the number of threads inside each.
TEST(Fft, ConcurrentCallsAndThreadCountsDoNotChangeTheResult) {
  auto rng = test::rng_for_test();
  struct Job { std::int64_t w, h; Border border; double sigma; };
  const Job jobs[] = {{301, 203, Border::reflect, 3.0},   {211, 157, Border::mirror, 17.0},
                      {389, 61, Border::wrap, 40.0},      {173, 229, Border::nearest, 5.5},
                      {257, 131, Border::constant, 80.0}, {127, 401, Border::reflect, 150.0}};
  auto spec_of = [](const Job& j, int threads) {
    BlurSpec spec = BlurSpec::isotropic_2d(j.sigma).with_border(j.border);
    spec.algorithm = Algorithm::fft;
    spec.cval = 0.7;
    spec.threads = threads;
    return spec;
  };
  std::vector<Buffer> sources;
  for (const Job& j : jobs) {
    sources.push_back(make_buffer(ElementType::f32, j.w, j.h, 1, 2));
    test::fill_random(sources.back().view, rng);
  }
  auto run_together = [&] {
    std::vector<Buffer> outs;
    for (const Job& j : jobs) outs.push_back(make_buffer(ElementType::f32, j.w, j.h, 1, 2));
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < std::size(jobs); ++i)
      threads.emplace_back([&, i] { blur(sources[i].view, outs[i].view, spec_of(jobs[i], 2)); });
    for (auto& t : threads) t.join();
    return outs;
  };
  const std::vector<Buffer> first = run_together();  // the plans for these lengths are made here, at once
  for (std::size_t i = 0; i < std::size(jobs); ++i)
    for (int threads : {1, 3, 0}) {
      Buffer out = make_buffer(ElementType::f32, jobs[i].w, jobs[i].h, 1, 2);
      blur(sources[i].view, out.view, spec_of(jobs[i], threads));
      ASSERT_EQ(out.bytes, first[i].bytes) << "job " << i << " threads " << threads;
    }
  for (int round = 0; round < 3; ++round) {
    const std::vector<Buffer> again = run_together();
    for (std::size_t i = 0; i < std::size(jobs); ++i) ASSERT_EQ(again[i].bytes, first[i].bytes) << "job " << i;
  }
}

// Seed 001's case for frequency-domain methods: sigma 200 (radius 800) on a 512-pixel row.
TEST(Fft, Sigma200OnA512PixelRow) {
  auto rng = test::rng_for_test();
  for (auto border : test::all_borders()) {
    BlurSpec spec;
    spec.sigma = {200.0, 0.0, 0.0};
    spec.with_border(border);
    spec.cval = 0.25;
    std::string where;
    const Agreement a = check_case(rng, ElementType::f32, 512, 1, 1, 1, spec, 0, 0, false, &where);
    ASSERT_LE(a.ratio, 1.0) << to_string(border) << " at " << where;
    // The same row as f64: agreement to double rounding, not only to the float tolerance.
    Buffer src = make_buffer(ElementType::f64, 512, 1, 1, 1);
    test::fill_random(src.view, rng);
    Buffer out = make_buffer(ElementType::f64, 512, 1, 1, 1), exact = make_buffer(ElementType::f64, 512, 1, 1, 1);
    spec.algorithm = Algorithm::fft;
    blur(src.view, out.view, spec);
    reference::separable_blur(src.view, exact.view, spec);
    double worst = 0.0;
    for (std::int64_t x = 0; x < 512; ++x)
      worst = std::max(worst, std::abs(test::get(out.view, x, 0, 0, 0) - test::get(exact.view, x, 0, 0, 0)));
    EXPECT_LE(worst, 1e-14) << to_string(border);
  }
}

TEST(Fft, IsInTheRegistry) {
  EXPECT_EQ(parse_algorithm("fft"), Algorithm::fft);
  EXPECT_EQ(to_string(Algorithm::fft), "fft");
}

}  // namespace
}  // namespace fastblur
