// The SIMD lane kernels of box, kawase and sliding-dct (lane_width() interleaved lines) against a
// double-precision direct convolution of the same padded lines with each filter's equivalent
// kernel, at awkward lengths, with guard bands that catch reads and writes outside the buffers;
// long lines of values near 1000 for drift. Bounds are in units of the data magnitude M = max |x|.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "cpu/box_lanes.hpp"
#include "cpu/iir_simd.hpp"
#include "cpu/kawase_lanes.hpp"
#include "cpu/sliding_dct_lanes.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/kernel_sliding_dct.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

constexpr double kEps24 = 0x1p-24;  // half a float ulp, relative: one float rounding
constexpr std::int64_t kLengths[] = {1, 2, 3, 7, 31, 257, 1000};
constexpr std::int64_t kGuard = 3;  // NaN positions around every buffer

// n + 2 pad positions of V lanes, each lane its own random line, between NaN guard bands: a read
// outside the line makes the output NaN, which fails every bound.
struct Lines {
  std::vector<float> buf;
  std::int64_t n = 0, pad = 0;
  std::size_t V = 0;
  const float* data() const { return buf.data() + kGuard * V; }
  double at(std::int64_t pos, std::size_t lane) const { return data()[static_cast<std::size_t>(pos) * V + lane]; }
};
Lines random_lines(std::int64_t n, std::int64_t pad, std::mt19937_64& rng, double offset = 0.0) {
  Lines x;
  x.n = n, x.pad = pad, x.V = cpu::lane_width();
  x.buf.assign(static_cast<std::size_t>(n + 2 * pad + 2 * kGuard) * x.V, std::numeric_limits<float>::quiet_NaN());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t i = kGuard * x.V; i < x.buf.size() - kGuard * x.V; ++i) x.buf[i] = static_cast<float>(offset + u(rng));
  return x;
}
double magnitude(const Lines& x) {
  double m = 0.0;
  for (float v : x.buf)
    if (!std::isnan(v)) m = std::max(m, std::abs(static_cast<double>(v)));
  return m;
}

// Output buffer of n positions with NaN guards; checks after the call that the guards are intact.
struct Out {
  std::vector<float> buf;
  std::size_t V;
  Out(std::int64_t n, std::size_t lanes) : V(lanes) {
    buf.assign(static_cast<std::size_t>(n + 2 * kGuard) * V, std::numeric_limits<float>::quiet_NaN());
  }
  float* data() { return buf.data() + kGuard * V; }
  bool guards_intact(std::int64_t n) const {
    for (std::size_t i = 0; i < kGuard * V; ++i)
      if (!std::isnan(buf[i]) || !std::isnan(buf[buf.size() - 1 - i])) return false;
    (void)n;
    return true;
  }
};

// The reference: out[i] of lane l = sum_t k[t] x[pad + i - h + t] of lane l, h = (size - 1) / 2.
std::vector<double> convolve(const Lines& x, const std::vector<double>& k) {
  const std::int64_t h = static_cast<std::int64_t>(k.size() - 1) / 2;
  EXPECT_LE(h, x.pad);
  std::vector<double> out(static_cast<std::size_t>(x.n) * x.V, 0.0);
  for (std::int64_t i = 0; i < x.n; ++i) {
    double* o = &out[static_cast<std::size_t>(i) * x.V];
    for (std::size_t t = 0; t < k.size(); ++t) {
      const float* row = x.data() + static_cast<std::size_t>(x.pad + i - h + static_cast<std::int64_t>(t)) * x.V;
      for (std::size_t l = 0; l < x.V; ++l) o[l] += k[t] * static_cast<double>(row[l]);
    }
  }
  return out;
}

// Largest |out - ref|, NaN (never <= anything) if any output is NaN; `where` names the worst.
double max_error(const float* out, const std::vector<double>& ref, std::size_t V, std::string* where) {
  double worst = 0.0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double e = std::abs(static_cast<double>(out[i]) - ref[i]);
    if (std::isnan(e)) {
      *where = "NaN at position " + std::to_string(i / V) + " lane " + std::to_string(i % V);
      return e;
    }
    if (e > worst) {
      worst = e;
      *where = "position " + std::to_string(i / V) + " lane " + std::to_string(i % V);
    }
  }
  return worst;
}

// Largest amount by which |out - ref| exceeds half a float ulp of ref: the error beyond the
// output's own rounding (zero for a result computed exactly and rounded once).
double excess_over_rounding(const float* out, const std::vector<double>& ref) {
  double worst = 0.0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const float f = static_cast<float>(std::abs(ref[i]));
    const double half_ulp = 0.5 * (static_cast<double>(std::nextafter(f, INFINITY)) - f);
    const double e = std::abs(static_cast<double>(out[i]) - ref[i]) - half_ulp;
    if (std::isnan(e)) return e;
    worst = std::max(worst, e);
  }
  return worst;
}

std::vector<std::vector<kernel::BoxPass>> box_parameter_sets() {
  std::vector<std::vector<kernel::BoxPass>> sets;
  for (double sigma : {0.3, 0.8, 1.7, 4.4, 12.5, 40.0})
    for (int passes : {1, 3, 6}) {
      sets.push_back(kernel::extended_box_passes(sigma, passes));
      sets.push_back(kernel::integer_box_passes(sigma, passes));
    }
  return sets;
}
std::int64_t box_pad(const std::vector<kernel::BoxPass>& passes) {
  std::int64_t pad = 0;
  for (const auto& p : passes) pad += p.radius + 1;
  return pad;
}

// Each pass rounds its output to float once (at most kEps24 M; the passes' weights are positive
// and sum to 1, so earlier roundings pass through at most unchanged); the double sums add ~1e-13.
TEST(LaneKernels, BoxMatchesItsEquivalentKernel) {
  auto rng = test::rng_for_test();
  double worst_ratio = 0.0;
  for (const auto& passes : box_parameter_sets())
    for (std::int64_t n : kLengths) {
      const std::int64_t pad = box_pad(passes);
      const Lines x = random_lines(n, pad, rng);
      Out out(n, x.V);
      std::vector<float> scratch(static_cast<std::size_t>(n + 2 * pad) * x.V, std::numeric_limits<float>::quiet_NaN());
      cpu::box_lanes(x.data(), out.data(), scratch.data(), n, pad, passes.data(), passes.size());
      const double bound = static_cast<double>(passes.size()) * kEps24 * magnitude(x) * 1.001;
      std::string where;
      const double err = max_error(out.data(), convolve(x, kernel::box_kernel(passes)), x.V, &where);
      ASSERT_LE(err, bound) << passes.size() << " passes, radius " << passes[0].radius << " alpha " << passes[0].alpha
                            << ", n " << n << ", at " << where;
      ASSERT_TRUE(out.guards_intact(n));
      worst_ratio = std::max(worst_ratio, err / bound);
    }
  std::printf("[ measured ] box: worst error %.3f of the bound passes * 2^-24 * M\n", worst_ratio);
}

// 3 passes at sigma 7.3 over 16384 samples near 1000: the double running sums do not drift (the
// error stays the three float roundings, 3 * 2^-24 = 1.8e-7 relative; a float running sum drifts
// past 1e-6). Asserted: 1e-6 relative to M, and the three roundings.
TEST(LaneKernels, BoxRunningSumsDoNotDriftOnLongLines) {
  auto rng = test::rng_for_test();
  const auto passes = kernel::extended_box_passes(7.3, 3);
  const std::int64_t n = 16384, pad = box_pad(passes);
  const Lines x = random_lines(n, pad, rng, 1000.0);
  Out out(n, x.V);
  std::vector<float> scratch(static_cast<std::size_t>(n + 2 * pad) * x.V);
  cpu::box_lanes(x.data(), out.data(), scratch.data(), n, pad, passes.data(), passes.size());
  std::string where;
  const double M = magnitude(x), err = max_error(out.data(), convolve(x, kernel::box_kernel(passes)), x.V, &where);
  std::printf("[ measured ] box long line: max error %.3g relative to M (at %s)\n", err / M, where.c_str());
  EXPECT_LE(err, 1e-6 * M) << where;
  EXPECT_LE(err, 3 * kEps24 * M * 1.001) << where;
  EXPECT_TRUE(out.guards_intact(n));
}

// Per pass, in float: two sums (half an ulp of 2 M each, weighted by near and far), the product,
// the fused multiply-add (half an ulp of M each) and the rounding of near and far to float: at most
// 4 * 2^-24 M per pass, passed on unchanged by the later (positive, unit-sum) passes.
TEST(LaneKernels, KawaseMatchesItsEquivalentKernel) {
  auto rng = test::rng_for_test();
  std::vector<std::vector<double>> schedules = {{0.5, 1.5, 2.5, 2.5, 3.5}, {0.0}, {1.0, 2.0}, {0.25, 3.75, 1.3},
                                                kernel::kawase_preset_2333()};
  for (double sigma : {0.4, 1.0, 2.7, 6.0, 15.0, 40.0}) schedules.push_back(kernel::kawase_schedule(sigma));
  double worst_ratio = 0.0;
  for (const auto& offsets : schedules)
    for (std::int64_t n : kLengths) {
      std::int64_t pad = 0;
      for (double d : offsets) pad += static_cast<std::int64_t>(std::floor(d)) + 1;
      const Lines x = random_lines(n, pad, rng);
      Out out(n, x.V);
      std::vector<float> scratch(static_cast<std::size_t>(n + 2 * pad) * x.V, std::numeric_limits<float>::quiet_NaN());
      cpu::kawase_lanes(x.data(), out.data(), scratch.data(), n, pad, offsets.data(), offsets.size());
      const double bound = static_cast<double>(offsets.size()) * 4 * kEps24 * magnitude(x);
      std::string where;
      const double err = max_error(out.data(), convolve(x, kernel::kawase_kernel(offsets)), x.V, &where);
      ASSERT_LE(err, bound) << offsets.size() << " passes, first " << offsets[0] << ", n " << n << ", at " << where;
      ASSERT_TRUE(out.guards_intact(n));
      worst_ratio = std::max(worst_ratio, err / bound);
    }
  std::printf("[ measured ] kawase: worst error %.3f of the bound passes * 4 * 2^-24 * M\n", worst_ratio);
}

// The state is double and the output rounds once, so every output is within half a float ulp of
// the exact result plus the double recurrences' error: asserted per sample, with 1e-9 M for the
// latter (its worst case within a restart interval, see below; measured: below 1e-13 M here).
TEST(LaneKernels, SlidingDctMatchesItsEquivalentKernel) {
  auto rng = test::rng_for_test();
  double worst_excess = 0.0;
  const auto check = [&](double sigma, int order, std::int64_t n) {
    const auto k = kernel::sliding_dct_kernel(sigma, order);
    const auto c = cpu::sliding_dct_lane_coefficients(k);
    const Lines x = random_lines(n, k.radius + 1, rng);
    Out out(n, x.V);
    cpu::sliding_dct_lanes(x.data(), out.data(), n, c);
    const double M = magnitude(x), excess = excess_over_rounding(out.data(), convolve(x, kernel::sliding_dct_weights(k)));
    ASSERT_LE(excess, 1e-9 * M) << "sigma " << sigma << " order " << order << " radius " << k.radius << ", n " << n;
    ASSERT_TRUE(out.guards_intact(n));
    worst_excess = std::max(worst_excess, excess / M);
  };
  for (double sigma : {0.5, 1.3, 4.2, 13.0, 60.0})
    for (int order : {2, 5, 8})
      for (std::int64_t n : kLengths) check(sigma, order, n);
  for (int order = 2; order <= 8; ++order)
    for (std::int64_t n : {std::int64_t{1}, std::int64_t{257}}) check(2.9, order, n);
  std::printf("[ measured ] sliding-dct: worst error beyond the output's rounding %.3g M\n", worst_excess);
}

// 16384 samples near 1000 cross 3 restarts (every max(4096, 8 R) samples; a wrong restart fails
// here). Measured: the error is the output's rounding alone, half an ulp of 1000 = 3.05e-8 M, at
// every sigma: the double recurrences' error within one restart interval (the j = 0 term's double
// root grows it at worst quadratically: 4096^2 * 2^-53 ~ 2e-9 M; sliding_dct.cpp documents 1e-10)
// is far below a float ulp, so even without restarts it would not show at this length. Asserted:
// half an ulp plus 1e-9 M per sample, and 2 * 2^-24 M overall.
TEST(LaneKernels, SlidingDctRestartsBoundDriftOnLongLines) {
  auto rng = test::rng_for_test();
  for (double sigma : {1.7, 9.3, 150.0}) {
    const auto k = kernel::sliding_dct_kernel(sigma);
    const auto c = cpu::sliding_dct_lane_coefficients(k);
    const std::int64_t n = 16384;
    const Lines x = random_lines(n, k.radius + 1, rng, 1000.0);
    Out out(n, x.V);
    cpu::sliding_dct_lanes(x.data(), out.data(), n, c);
    const auto ref = convolve(x, kernel::sliding_dct_weights(k));
    std::string where;
    const double M = magnitude(x), err = max_error(out.data(), ref, x.V, &where);
    const double excess = excess_over_rounding(out.data(), ref);
    std::printf("[ measured ] sliding-dct sigma %g radius %d: max error %.3g M, beyond rounding %.3g M\n", sigma,
                k.radius, err / M, excess / M);
    EXPECT_LE(excess, 1e-9 * M) << "sigma " << sigma;
    EXPECT_LE(err, 2 * kEps24 * M) << "sigma " << sigma << " at " << where;
    EXPECT_TRUE(out.guards_intact(n));
  }
}

// More padding than the passes use is skipped (the output is the same); no passes copy the line.
TEST(LaneKernels, ExtraPaddingAndNoPasses) {
  auto rng = test::rng_for_test();
  const std::int64_t n = 37;
  const auto passes = kernel::extended_box_passes(2.6, 3);
  const std::vector<double> offsets = {0.5, 1.5, 2.25};
  const std::int64_t pad = box_pad(passes) + 5;  // box needs 3 * 3 + 3 = 12, kawase 6
  const Lines x = random_lines(n, pad, rng);
  std::vector<float> scratch(static_cast<std::size_t>(n + 2 * pad) * x.V);
  std::string where;
  Out box(n, x.V), kawase(n, x.V), copy(n, x.V), copy2(n, x.V);
  cpu::box_lanes(x.data(), box.data(), scratch.data(), n, pad, passes.data(), passes.size());
  const auto ref_box = convolve(x, kernel::box_kernel(passes));
  EXPECT_LE(max_error(box.data(), ref_box, x.V, &where), 3 * kEps24 * magnitude(x) * 1.001) << where;
  cpu::kawase_lanes(x.data(), kawase.data(), scratch.data(), n, pad, offsets.data(), offsets.size());
  EXPECT_LE(max_error(kawase.data(), convolve(x, kernel::kawase_kernel(offsets)), x.V, &where), 12 * kEps24 * magnitude(x))
      << where;
  cpu::box_lanes(x.data(), copy.data(), scratch.data(), n, pad, nullptr, 0);
  cpu::kawase_lanes(x.data(), copy2.data(), scratch.data(), n, pad, nullptr, 0);
  EXPECT_EQ(max_error(copy.data(), convolve(x, {1.0}), x.V, &where), 0.0) << where;
  EXPECT_EQ(max_error(copy2.data(), convolve(x, {1.0}), x.V, &where), 0.0) << where;
  EXPECT_TRUE(box.guards_intact(n) && kawase.guards_intact(n) && copy.guards_intact(n) && copy2.guards_intact(n));
}

// ---- timing (not a test: run with --gtest_also_run_disabled_tests) ----

// The scalar filters of box.cpp, kawase.cpp and sliding_dct.cpp, one double line at a time.
void scalar_box(const double* in, double* out, std::int64_t n, std::int64_t pad, const std::vector<kernel::BoxPass>& passes,
                std::vector<double>& a, std::vector<double>& b) {
  const std::size_t len = static_cast<std::size_t>(n + 2 * pad);
  a.assign(in, in + len);
  b.resize(len);
  std::int64_t lo = 0, hi = static_cast<std::int64_t>(len);
  for (const auto& p : passes) {
    const std::int64_t r = p.radius, h = r + 1;
    const double inv = 1.0 / (2.0 * r + 1.0 + 2.0 * p.alpha);
    double sum = 0.0;
    for (std::int64_t j = lo + h - r; j <= lo + h + r; ++j) sum += a[j];
    for (std::int64_t i = lo + h; i < hi - h; ++i) {
      b[i] = (sum + p.alpha * (a[i - h] + a[i + h])) * inv;
      sum += a[i + r + 1] - a[i - r];
    }
    lo += h, hi -= h;
    std::swap(a, b);
  }
  for (std::int64_t i = 0; i < n; ++i) out[i] = a[static_cast<std::size_t>(pad + i)];
}
void scalar_kawase(const double* in, double* out, std::int64_t n, std::int64_t pad, const std::vector<double>& offsets,
                   std::vector<double>& a, std::vector<double>& b) {
  const std::size_t len = static_cast<std::size_t>(n + 2 * pad);
  a.assign(in, in + len);
  b.resize(len);
  std::int64_t lo = 0, hi = static_cast<std::int64_t>(len);
  for (double d : offsets) {
    const std::int64_t s = static_cast<std::int64_t>(std::floor(d));
    const double t = d - static_cast<double>(s), near = 0.5 * (1.0 - t), far = 0.5 * t;
    for (std::int64_t i = lo + s + 1; i < hi - s - 1; ++i)
      b[i] = near * (a[i - s] + a[i + s]) + far * (a[i - s - 1] + a[i + s + 1]);
    lo += s + 1, hi -= s + 1;
    std::swap(a, b);
  }
  for (std::int64_t i = 0; i < n; ++i) out[i] = a[static_cast<std::size_t>(pad + i)];
}
void scalar_sliding_dct(const double* in, double* out, std::int64_t n, const cpu::SlidingDctLaneCoefficients& c) {
  const int r = c.radius;
  const std::size_t t = static_cast<std::size_t>(c.terms);
  const double* x = in + r + 1;
  double z[16], prev[16];
  const auto direct = [&](std::int64_t at, double* dst) {
    for (std::size_t j = 0; j < t; ++j) {
      double sum = 0.0;
      for (int m = -r; m <= r; ++m) sum += c.window[static_cast<std::size_t>(m + r) * t + j] * x[at + m];
      dst[j] = sum;
    }
  };
  for (std::int64_t i = 0; i < n; ++i) {
    if (i % c.restart_interval == 0) {
      direct(i - 1, prev);
      direct(i, z);
    } else {
      const double ends = (x[i + r] + x[i - r - 2]) - (x[i + r - 1] + x[i - r - 1]);
      for (std::size_t j = 0; j < t; ++j) {
        const double next = c.two_cos[j] * z[j] - prev[j] + c.cos_radius[j] * ends;
        prev[j] = z[j];
        z[j] = next;
      }
    }
    double y = 0.0;
    for (std::size_t j = 0; j < t; ++j) y += c.beta[j] * z[j];
    out[i] = y;
  }
}

// Best of `reps` runs of f, in nanoseconds per line sample.
template <class F>
double ns_per_sample(F&& f, std::int64_t samples, int reps = 15) {
  double best = 1e300;
  for (int k = 0; k < reps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count());
  }
  return best / static_cast<double>(samples);
}

// Floats at a 64-byte boundary plus `shift` floats (std::vector's 16-byte alignment is shift 4).
struct AlignedFloats {
  std::vector<float> storage;
  float* data;
  AlignedFloats(std::size_t count, std::size_t shift) : storage(count + 32) {
    const auto address = reinterpret_cast<std::uintptr_t>(storage.data());
    data = storage.data() + ((64 - address % 64) % 64) / sizeof(float) + shift;
  }
};

// lane_width() lines of 1920 samples: the lane kernel on all of them at once (buffers 64-byte
// aligned, and 16 bytes off) against the scalar double loop line by line (the copies into and out
// of each layout excluded from both).
TEST(LaneKernels, DISABLED_TimingAgainstScalarDouble) {
  auto rng = test::rng_for_test();
  const std::int64_t n = 1920;
  const std::size_t V = cpu::lane_width();
  std::printf("[ timing   ] lane_width %zu, ns per line sample, best of 15\n", V);
  const auto run = [&](const char* name, std::int64_t pad, auto&& lanes, auto&& scalar) {
    const Lines x = random_lines(n, pad, rng);
    const std::size_t len = static_cast<std::size_t>(n + 2 * pad);
    std::vector<std::vector<double>> lines(V, std::vector<double>(len));
    for (std::size_t l = 0; l < V; ++l)
      for (std::size_t i = 0; i < len; ++i) lines[l][i] = x.at(static_cast<std::int64_t>(i), l);
    std::vector<double> dout(static_cast<std::size_t>(n));
    const std::int64_t samples = n * static_cast<std::int64_t>(V);
    double simd[2];
    for (std::size_t shift : {0, 4}) {
      AlignedFloats in(len * V, shift), out(static_cast<std::size_t>(n) * V, shift), scratch(len * V, shift);
      std::copy(x.data(), x.data() + len * V, in.data);
      simd[shift / 4] = ns_per_sample([&] { lanes(in.data, out.data, scratch.data, pad); }, samples);
    }
    const double ref = ns_per_sample([&] {
      for (std::size_t l = 0; l < V; ++l) scalar(lines[l].data(), dout.data(), pad);
    }, samples);
    std::printf("[ timing   ] %-30s lanes %6.3f (16 B off: %6.3f), scalar double %6.3f: speedup %5.2fx (%5.2fx)\n", name,
                simd[0], simd[1], ref, ref / simd[0], ref / simd[1]);
  };
  std::vector<double> a, b;
  for (double sigma : {2.0, 5.0, 20.0}) {
    char name[64];
    const auto passes = kernel::extended_box_passes(sigma, 3);
    std::snprintf(name, sizeof name, "box 3 passes sigma %g", sigma);
    run(name, box_pad(passes),
        [&](const float* in, float* out, float* s, std::int64_t pad) { cpu::box_lanes(in, out, s, n, pad, passes.data(), passes.size()); },
        [&](const double* in, double* out, std::int64_t pad) { scalar_box(in, out, n, pad, passes, a, b); });
    const auto offsets = kernel::kawase_schedule(sigma);
    std::int64_t kpad = 0;
    for (double d : offsets) kpad += static_cast<std::int64_t>(std::floor(d)) + 1;
    std::snprintf(name, sizeof name, "kawase sigma %g (%zu passes)", sigma, offsets.size());
    run(name, kpad,
        [&](const float* in, float* out, float* s, std::int64_t pad) { cpu::kawase_lanes(in, out, s, n, pad, offsets.data(), offsets.size()); },
        [&](const double* in, double* out, std::int64_t pad) { scalar_kawase(in, out, n, pad, offsets, a, b); });
    for (int order : {3, 5, 8}) {
      const auto c = cpu::sliding_dct_lane_coefficients(kernel::sliding_dct_kernel(sigma, order));
      std::snprintf(name, sizeof name, "sliding-dct sigma %g order %d", sigma, order);
      run(name, c.radius + 1,
          [&](const float* in, float* out, float*, std::int64_t) { cpu::sliding_dct_lanes(in, out, n, c); },
          [&](const double* in, double* out, std::int64_t) { scalar_sliding_dct(in, out, n, c); });
    }
  }
}

}  // namespace
}  // namespace fastblur
