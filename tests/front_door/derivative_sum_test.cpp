// derivative_sum (src/derivative_sum.cpp): SciPy's Laplace and gradient magnitude of Gaussian
// derivatives equal their composition - each term a blur of its own, then NumPy's steps in the
// output's type (a scalar loop here) - bit for bit, whether the terms run in one pass (a 2D image in
// SciPy's order) or one blur at a time (a volume, borders that differ along y, rounding to nearest),
// on float32 and float64 outputs from every source type, channels, threads, strided sources.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "fastblur/derivative_sum.hpp"
#include "fastblur/error.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

// The composition SciPy's generic_laplace / generic_gradient_magnitude make, element by element.
template <class T>
void compose(DerivativeSum kind, const std::vector<std::vector<T>>& terms, std::vector<T>& out) {
  const bool magnitude = kind == DerivativeSum::gradient_magnitude;
  out = terms[0];
  for (T& v : out) v = magnitude ? static_cast<T>(v * v) : v;
  for (std::size_t k = 1; k < terms.size(); ++k)
    for (std::size_t i = 0; i < out.size(); ++i) {
      const T t = magnitude ? static_cast<T>(terms[k][i] * terms[k][i]) : terms[k][i];
      out[i] = static_cast<T>(out[i] + t);
    }
  if (magnitude)
    for (T& v : out) v = std::sqrt(v);
}

template <class T>
std::vector<T> values(const View& v) {
  std::vector<T> out;
  for (std::int64_t z = 0; z < v.depth(); ++z)
    for (std::int64_t y = 0; y < v.height(); ++y)
      for (std::int64_t x = 0; x < v.width(); ++x)
        for (int c = 0; c < v.channels; ++c) {
          T e;
          std::memcpy(&e, v.pixel(x, y, z) + c * sizeof(T), sizeof e);
          out.push_back(e);
        }
  return out;
}

struct Case {
  std::int64_t w, h, d;
  int c;
  std::array<double, 3> sigma;
  int threads;
  Rounding rounding;
  bool y_borders_differ;
  int one_pass;  // what the plans allow: 0 no, 1 yes
};

template <class T>
void check(const Case& cs, ElementType src_type, DerivativeSum kind, std::mt19937_64& rng, const std::string& what) {
  const ElementType dt = sizeof(T) == 8 ? ElementType::f64 : ElementType::f32;
  auto src = test::make_buffer(src_type, cs.w, cs.h, cs.d, cs.c, /*pad_px=*/cs.c == 1 ? 1 : 0);
  test::fill_random(src.view, rng);
  const int order = kind == DerivativeSum::laplace ? 2 : 1;
  std::vector<BlurSpec> terms;
  for (int a = 0; a < 3; ++a) {
    if (!(cs.sigma[static_cast<std::size_t>(a)] > 0)) continue;
    BlurSpec t;
    t.sigma = cs.sigma;
    t.order[static_cast<std::size_t>(a)] = order;
    t.rounding = cs.rounding;
    t.threads = cs.threads;
    t.with_border(terms.empty() || !cs.y_borders_differ ? Border::reflect : Border::wrap);
    terms.push_back(t);
  }
  std::vector<std::vector<T>> parts;
  for (const BlurSpec& t : terms) {
    auto part = test::make_buffer(dt, cs.w, cs.h, cs.d, cs.c);
    blur(src.view, part.view, t);
    parts.push_back(values<T>(part.view));
  }
  std::vector<T> want;
  compose(kind, parts, want);
  auto got = test::make_buffer(dt, cs.w, cs.h, cs.d, cs.c);
  ASSERT_EQ(derivative_sum_in_one_pass(src.view, got.view, terms), cs.one_pass == 1)
      << what;
  derivative_sum(src.view, got.view, kind, terms);
  const std::vector<T> g = values<T>(got.view);
  ASSERT_EQ(g.size(), want.size());
  for (std::size_t i = 0; i < g.size(); ++i)
    ASSERT_TRUE(std::memcmp(&g[i], &want[i], sizeof(T)) == 0 || (std::isnan(g[i]) && std::isnan(want[i])))
        << what << " at " << i << ": " << g[i] << " vs " << want[i];
}

TEST(DerivativeSum, EqualsItsCompositionInOnePassOrBlurByBlur) {
  auto rng = test::rng_for_test();
  const Case cases[] = {
      {37, 29, 1, 1, {1.3, 2.1, 0.0}, 2, Rounding::scipy, false, 1},
      {64, 41, 1, 3, {2.0, 2.0, 0.0}, 3, Rounding::scipy, false, 1},
      {9, 50, 1, 4, {0.7, 3.5, 0.0}, 1, Rounding::scipy, false, 1},
      {23, 17, 1, 2, {1.0, 1.5, 0.0}, 2, Rounding::scipy, true, 0},   // y borders differ: blur by blur
      {19, 13, 7, 1, {1.2, 0.9, 1.6}, 2, Rounding::scipy, false, 0},  // a volume: blur by blur
      {31, 22, 1, 1, {1.4, 1.1, 0.0}, 2, Rounding::nearest, false, 0},  // derivatives to nearest: the line driver
      {40, 1, 1, 1, {2.0, 0.0, 0.0}, 1, Rounding::scipy, false, 0},   // one axis: its own first and last
  };
  const ElementType sources[] = {ElementType::u8, ElementType::i16, ElementType::f32, ElementType::f64};
  int checked = 0;
  for (std::size_t ci = 0; ci < std::size(cases); ++ci)
    for (ElementType st : sources)
      for (DerivativeSum kind : {DerivativeSum::laplace, DerivativeSum::gradient_magnitude}) {
        const std::string what = "case " + std::to_string(ci) + " from " + std::string(to_string(st)) +
                                 (kind == DerivativeSum::laplace ? " laplace" : " magnitude");
        check<double>(cases[ci], st, kind, rng, what + " to f64");
        check<float>(cases[ci], st, kind, rng, what + " to f32");
        ++checked;
      }
  EXPECT_EQ(checked, 56);
}

TEST(DerivativeSum, RefusesIntegerOutputsAndNoTerms) {
  std::vector<std::uint8_t> a(64), b(64);
  const View s = View::packed(a.data(), ElementType::u8, 8, 8), d = View::packed(b.data(), ElementType::u8, 8, 8);
  BlurSpec t = BlurSpec::isotropic_2d(1.0);
  EXPECT_THROW(derivative_sum(s, d, DerivativeSum::laplace, std::vector<BlurSpec>{t}), InvalidArgument);
  std::vector<double> f(64);
  const View fd = View::packed(f.data(), ElementType::f64, 8, 8);
  EXPECT_THROW(derivative_sum(s, fd, DerivativeSum::laplace, std::vector<BlurSpec>{}), InvalidArgument);
}

}  // namespace
}  // namespace fastblur
