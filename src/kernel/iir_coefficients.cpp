// Coefficients of the recursive Gaussians: Deriche (4th order), Young-van Vliet (3rd order) and the
// Triggs-Sdika boundary matrix.
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "fastblur/error.hpp"
#include "fastblur/kernel_iir.hpp"

namespace fastblur::kernel {
namespace {

void check_sigma(const char* what, double sigma) {
  if (!(sigma >= kIirMinSigma && sigma <= kIirMaxSigma))
    throw InvalidArgument(std::string(what) + ": sigma must be in [0.5, 1000], got " + std::to_string(sigma) +
                          " (fir takes any sigma)");
}

using Complex = std::complex<double>;
using Polynomial = std::vector<Complex>;  // coefficients of z^0, z^-1, z^-2, ...

Polynomial multiply(const Polynomial& p, const Polynomial& q) {
  Polynomial r(p.size() + q.size() - 1, Complex{});
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = 0; j < q.size(); ++j) r[i + j] += p[i] * q[j];
  return r;
}

Polynomial add(Polynomial p, const Polynomial& q) {
  p.resize(std::max(p.size(), q.size()), Complex{});
  for (std::size_t i = 0; i < q.size(); ++i) p[i] += q[i];
  return p;
}

// The real root in (0, 1) of z^3 - a1 z^2 - a2 z - a3, which exists when a3 > 0 and a1 + a2 + a3 < 1
// (the polynomial is -a3 at 0 and 1 - a1 - a2 - a3 at 1).
double real_pole(const std::array<double, 3>& a) {
  const auto f = [&](double z) { return ((z - a[0]) * z - a[1]) * z - a[2]; };
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 200 && hi - lo > 1e-17; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) < 0.0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace

DericheCoefficients deriche_coefficients(double sigma) {
  check_sigma("deriche_coefficients", sigma);
  // Deriche's optimised 4th-order parameters, as tabulated by Getreuer (IPOL 2013).
  const Complex alpha[4] = {{0.84, 1.8675}, {0.84, -1.8675}, {-0.34015, -0.1299}, {-0.34015, 0.1299}};
  const Complex lambda[4] = {{1.783, 0.6318}, {1.783, -0.6318}, {1.723, 1.997}, {1.723, -1.997}};
  // The causal part is sum_k alpha_k / (1 - exp(-lambda_k / sigma) z^-1); put over one denominator.
  Polynomial numerator{alpha[0]}, denominator{Complex{1.0}, -std::exp(-lambda[0] / sigma)};
  for (int k = 1; k < 4; ++k) {
    const Polynomial pole_k{Complex{1.0}, -std::exp(-lambda[k] / sigma)};
    numerator = add(multiply(numerator, pole_k), multiply(Polynomial{alpha[k]}, denominator));
    denominator = multiply(denominator, pole_k);
  }
  DericheCoefficients c;
  c.sigma = sigma;
  for (int k = 0; k < 4; ++k) {
    c.causal[k] = numerator[k].real();  // conjugate pairs: the imaginary parts cancel
    c.feedback[k] = denominator[k + 1].real();
  }
  // Anticausal = mirror of the causal filter minus its sample at 0 (b+_0):
  // b-_k = b+_k - a_k b+_0 for k = 1..3, b-_4 = -a_4 b+_0.
  for (int k = 1; k <= 4; ++k)
    c.anticausal[k - 1] = (k < 4 ? c.causal[k] : 0.0) - c.feedback[k - 1] * c.causal[0];
  double a_sum = 1.0, causal_sum = 0.0, anticausal_sum = 0.0;
  for (int k = 0; k < 4; ++k) a_sum += c.feedback[k], causal_sum += c.causal[k], anticausal_sum += c.anticausal[k];
  // Scale the numerators so the DC gain is exactly 1 (rather than about 1 from 1/(sqrt(2 pi) sigma)).
  const double dc = (causal_sum + anticausal_sum) / a_sum;
  for (int k = 0; k < 4; ++k) c.causal[k] /= dc, c.anticausal[k] /= dc;
  c.causal_gain = causal_sum / dc / a_sum;
  c.anticausal_gain = 1.0 - c.causal_gain;
  c.pole_radius = std::exp(-std::min(lambda[0].real(), lambda[2].real()) / sigma);
  return c;
}

DericheParallelForm deriche_parallel_form(double sigma) {
  check_sigma("deriche_parallel_form", sigma);
  // The terms deriche_coefficients puts over one denominator, one of each conjugate pair.
  const Complex alpha[2] = {{0.84, 1.8675}, {-0.34015, -0.1299}};
  const Complex lambda[2] = {{1.783, 0.6318}, {1.723, 1.997}};
  DericheParallelForm f;
  double dc = 0.0;  // total DC gain 2 Re sum alpha (1 + p) / (1 - p): scaled to 1, as the direct form
  for (int k = 0; k < 2; ++k) {
    f.pole[static_cast<std::size_t>(k)] = std::exp(-lambda[k] / sigma);
    dc += 2.0 * (alpha[k] * (1.0 + f.pole[static_cast<std::size_t>(k)]) / (1.0 - f.pole[static_cast<std::size_t>(k)])).real();
  }
  for (int k = 0; k < 2; ++k) f.residue[static_cast<std::size_t>(k)] = alpha[k] / dc;
  return f;
}

double young_van_vliet_q(double sigma) {
  check_sigma("young_van_vliet_q", sigma);
  // Young & van Vliet 1995: the fit of q to sigma, in two branches.
  return sigma >= 2.5 ? 0.98711 * sigma - 0.96330 : 3.97156 - 4.14554 * std::sqrt(1.0 - 0.26891 * sigma);
}

YoungVanVlietCoefficients young_van_vliet_coefficients(double sigma) {
  YoungVanVlietCoefficients c;
  c.sigma = sigma;
  const double q = c.q = young_van_vliet_q(sigma);
  // Young & van Vliet 1995 publish b0..b3 as cubics in q, e.g. b0 = 1.57825 + 2.44413 q + 1.4281 q^2
  // + 0.422205 q^3. To their printed digits these are K (q + m0) |q + m1 + i m2|^2 and its kin
  // (poles q / (q + m0) and q / (q + m1 +- i m2); m0..m2 as in van Vliet, Young, Verbeek 1998),
  // which we evaluate instead: the rounded cubics move the near-triple pole at 1 enough to spoil
  // the shape beyond sigma ~ 50 (L1 0.07 at sigma 100, 0.96 at 500).
  constexpr double K = 0.422205, m0 = 1.16680, m1 = 1.10783, m2 = 1.40586;
  const double r2 = (q + m1) * (q + m1) + m2 * m2;
  c.b0 = K * (q + m0) * r2;
  c.b1 = K * q * (r2 + 2.0 * (q + m0) * (q + m1));
  c.b2 = -K * q * q * (3.0 * q + m0 + 2.0 * m1);
  c.b3 = K * q * q * q;
  c.feedback = {c.b1 / c.b0, c.b2 / c.b0, c.b3 / c.b0};
  // As published; it makes the DC gain B / (1 - a1 - a2 - a3) of each pass 1 in the arithmetic
  // the recursion itself runs in.
  c.B = 1.0 - (c.feedback[0] + c.feedback[1] + c.feedback[2]);
  // Poles: one real r, and the roots of z^2 + (r - a1) z + a3 / r (the cubic divided by z - r).
  const double r = real_pole(c.feedback);
  const double p = r - c.feedback[0], s = c.feedback[2] / r, disc = p * p - 4.0 * s;
  const double pair = disc < 0.0 ? std::sqrt(s) : 0.5 * (std::abs(p) + std::sqrt(disc));
  c.pole_radius = std::max(r, pair);
  return c;
}

Matrix3 triggs_sdika_matrix(const std::array<double, 3>& feedback) {
  // Triggs & Sdika 2006: their closed form of M for a 3rd-order recursion.
  const double a1 = feedback[0], a2 = feedback[1], a3 = feedback[2];
  const double s = 1.0 / ((1.0 + a1 - a2 + a3) * (1.0 - a1 - a2 - a3) * (1.0 + a2 + (a1 - a3) * a3));
  Matrix3 m;
  m[0] = {s * (1.0 - a2 - a1 * a3 - a3 * a3), s * (a1 + a3) * (a2 + a1 * a3), s * a3 * (a1 + a2 * a3)};
  m[1] = {s * (a1 + a2 * a3), -s * (a2 - 1.0) * (a2 + a1 * a3), -s * a3 * (a1 * a3 + a3 * a3 + a2 - 1.0)};
  m[2] = {s * (a1 * a3 + a2 + a1 * a1 - a2 * a2),
          s * (a1 * a2 + a2 * a2 * a3 - a1 * a3 * a3 - a3 * a3 * a3 - a2 * a3 + a3), s * a3 * (a1 + a2 * a3)};
  return m;
}

std::int64_t recursive_decay_length(double pole_radius, double tolerance) {
  if (!(pole_radius >= 0.0 && pole_radius < 1.0))
    throw InvalidArgument("recursive_decay_length: pole radius must be in [0, 1), got " + std::to_string(pole_radius));
  if (!(tolerance > 0.0 && tolerance < 1.0))
    throw InvalidArgument("recursive_decay_length: tolerance must be in (0, 1), got " + std::to_string(tolerance));
  if (pole_radius == 0.0) return 1;
  return static_cast<std::int64_t>(std::ceil(std::log(tolerance) / std::log(pole_radius)));
}

}  // namespace fastblur::kernel

namespace fastblur::kernel {

std::vector<double> deriche_impulse_response(double sigma, int half) {
  const DericheCoefficients c = deriche_coefficients(sigma);
  if (half < 0) throw InvalidArgument("deriche_impulse_response: half must be >= 0");
  // Both recursions start at rest on the zeros beyond the window, so the window holds them exactly.
  const std::size_t n = 2 * static_cast<std::size_t>(half) + 1;
  std::vector<double> x(n, 0.0), h(n, 0.0);
  x[static_cast<std::size_t>(half)] = 1.0;
  const auto at = [](const std::vector<double>& v, std::int64_t i) {
    return i < 0 || i >= static_cast<std::int64_t>(v.size()) ? 0.0 : v[static_cast<std::size_t>(i)];
  };
  std::vector<double> y(n, 0.0);
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
    double v = 0.0;
    for (int k = 0; k < 4; ++k) v += c.causal[static_cast<std::size_t>(k)] * at(x, i - k);
    for (int k = 1; k <= 4; ++k) v -= c.feedback[static_cast<std::size_t>(k - 1)] * at(y, i - k);
    y[static_cast<std::size_t>(i)] = v;
  }
  h = y;
  std::fill(y.begin(), y.end(), 0.0);
  for (std::int64_t i = static_cast<std::int64_t>(n) - 1; i >= 0; --i) {
    double v = 0.0;
    for (int k = 1; k <= 4; ++k) v += c.anticausal[static_cast<std::size_t>(k - 1)] * at(x, i + k);
    for (int k = 1; k <= 4; ++k) v -= c.feedback[static_cast<std::size_t>(k - 1)] * at(y, i + k);
    y[static_cast<std::size_t>(i)] = v;
    h[static_cast<std::size_t>(i)] += v;
  }
  return h;
}

std::vector<double> young_van_vliet_impulse_response(double sigma, int half) {
  const YoungVanVlietCoefficients c = young_van_vliet_coefficients(sigma);
  if (half < 0) throw InvalidArgument("young_van_vliet_impulse_response: half must be >= 0");
  // The causal pass leaves an infinite tail to the right, which the backward pass reads: run it
  // until the tail has decayed below double precision, then back from rest.
  const std::int64_t tail = recursive_decay_length(c.pole_radius, 1e-18);
  const std::size_t n = static_cast<std::size_t>(2 * static_cast<std::int64_t>(half) + 1 + tail);
  std::vector<double> w(n, 0.0), v(n, 0.0);
  const auto at = [](const std::vector<double>& a, std::int64_t i) {
    return i < 0 || i >= static_cast<std::int64_t>(a.size()) ? 0.0 : a[static_cast<std::size_t>(i)];
  };
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
    w[static_cast<std::size_t>(i)] = (i == half ? c.B : 0.0) + c.feedback[0] * at(w, i - 1) +
                                     c.feedback[1] * at(w, i - 2) + c.feedback[2] * at(w, i - 3);
  for (std::int64_t i = static_cast<std::int64_t>(n) - 1; i >= 0; --i)
    v[static_cast<std::size_t>(i)] = c.B * w[static_cast<std::size_t>(i)] + c.feedback[0] * at(v, i + 1) +
                                     c.feedback[1] * at(v, i + 2) + c.feedback[2] * at(v, i + 3);
  v.resize(2 * static_cast<std::size_t>(half) + 1);
  return v;
}

}  // namespace fastblur::kernel
