// Convolution of each line as a product in the frequency domain whose implied extension of the
// line is exactly the border mode's (x = the n samples, lambda = symmetric_kernel_spectrum):
//   wrap     period n:              y = c2r(lambda_n . r2c(x)) / n
//   reflect  period 2n, even about -1/2 (half-sample): DCT-II / DCT-III,
//            y = dct3(lambda_2n . dct2(x)) / 2n
//   mirror   period 2n-2, even about 0 (whole-sample): DCT-I both ways,
//            y = dct1(lambda_(2n-2) . dct1(x)) / (2n-2)
//   nearest, constant: a linear convolution (zero-padded DFT) plus the samples beyond the ends,
//            which are constant, in closed form.
// For reflect: the 2n-periodic even extension e of x has DFT E_k = exp(i pi k / 2n) X_k with
// X = dct2(x) (Martucci 1994, "Symmetric convolution and the discrete sine and cosine
// transforms"); the blurred extension has the same symmetry, so its DCT-II is lambda_k X_k.
// For mirror: the (2n-2)-periodic even extension has DFT E_k = dct1(x)_k, k = 0..n-1.
#include "cpu/execute.hpp"

#include <algorithm>
#include <complex>
#include <utility>
#include <vector>

#include "core/size.hpp"
#include "cpu/fft_spectrum.hpp"
#include "cpu/fftw_plans.hpp"
#include "cpu/line_driver.hpp"

namespace fastblur::cpu {
namespace {

// This thread's transform buffers, aligned as the plans require; kept across lines and calls.
struct TransformBuffers {
  AlignedArray<double> a, b;
  AlignedArray<std::complex<double>> spectrum;
};
TransformBuffers& transform_buffers(std::int64_t real_length) {
  thread_local TransformBuffers buffers;
  buffers.a.reserve(static_cast<std::size_t>(real_length));
  buffers.b.reserve(static_cast<std::size_t>(real_length));
  buffers.spectrum.reserve(static_cast<std::size_t>(real_length / 2 + 1));
  return buffers;
}

// The eigenvalues of the kernel on a circle of `period` points, the first `count` of them, each
// divided by the inverse transform's scale.
std::vector<double> gains(const std::vector<double>& half, std::int64_t period, std::int64_t count, double scale) {
  std::vector<double> g = symmetric_kernel_spectrum(half, period);
  g.resize(static_cast<std::size_t>(count));
  for (double& v : g) v /= scale;
  return g;
}

// reflect and mirror: y = inverse(gain . forward(x)) with real-to-real transforms of n points.
LineFilter cosine_filter(std::int64_t n, FftwKind forward_kind, FftwKind inverse_kind, std::vector<double> gain) {
  const fftw_plan forward = fftw_plan_for(forward_kind, n), inverse = fftw_plan_for(inverse_kind, n);
  LineFilter f;
  f.apply = [forward, inverse, gain = std::move(gain)](const double* in, double* out, std::int64_t n, LineScratch&) {
    TransformBuffers& buf = transform_buffers(n);
    std::copy(in, in + n, buf.a.data());
    fftw_execute_r2r(forward, buf.a.data(), buf.b.data());
    for (std::int64_t k = 0; k < n; ++k) buf.b.data()[k] *= gain[static_cast<std::size_t>(k)];
    fftw_execute_r2r(inverse, buf.b.data(), buf.a.data());
    std::copy(buf.a.data(), buf.a.data() + n, out);
  };
  return f;
}

// wrap: circular convolution of period n, the kernel folded modulo n.
LineFilter wrap_filter(const std::vector<double>& half, std::int64_t n) {
  const fftw_plan forward = fftw_plan_for(FftwKind::r2c, n), inverse = fftw_plan_for(FftwKind::c2r, n);
  LineFilter f;
  f.apply = [forward, inverse, gain = gains(half, n, n / 2 + 1, static_cast<double>(n))](
                const double* in, double* out, std::int64_t n, LineScratch&) {
    TransformBuffers& buf = transform_buffers(n);
    std::copy(in, in + n, buf.a.data());
    fftw_execute_dft_r2c(forward, buf.a.data(), as_fftw(buf.spectrum.data()));
    for (std::size_t k = 0; k < gain.size(); ++k) buf.spectrum.data()[k] *= gain[k];
    fftw_execute_dft_c2r(inverse, as_fftw(buf.spectrum.data()), buf.a.data());
    std::copy(buf.a.data(), buf.a.data() + n, out);
  };
  return f;
}

// nearest and constant: y_i = sum_j w_j x_(i+j) with x_i = left for i < 0 and right for i >= n.
// Inside the line this is a linear convolution; taps with |j| >= n never reach a sample, so the
// kernel is cut to r' = min(r, n-1) and a circle of L >= n + r' points holds it without wrapping
// onto the outputs. Outside, the taps sum to tail(s) = sum_{j=s..r} w_j: tail(i+1) on the left,
// tail(n-i) on the right.
LineFilter linear_filter(const std::vector<double>& half, std::int64_t n, Border border, double cval) {
  const std::int64_t r = static_cast<std::int64_t>(half.size()) - 1, reach = std::min(r, n - 1);
  const std::int64_t L = fftw_fast_length(n + reach);
  const std::vector<double> reaching(half.begin(), half.begin() + reach + 1);
  std::vector<double> tail(static_cast<std::size_t>(n + 1), 0.0);  // tail[s], s = 0..n; 0 beyond r
  double sum = 0.0;
  for (std::int64_t j = r; j >= 1; --j) {  // smallest weights first
    sum += half[static_cast<std::size_t>(j)];
    if (j <= n) tail[static_cast<std::size_t>(j)] = sum;
  }
  const fftw_plan forward = fftw_plan_for(FftwKind::r2c, L), inverse = fftw_plan_for(FftwKind::c2r, L);
  const bool nearest = border == Border::nearest;
  LineFilter f;
  f.apply = [=, gain = gains(reaching, L, L / 2 + 1, static_cast<double>(L)), tail = std::move(tail)](
                const double* in, double* out, std::int64_t n, LineScratch&) {
    TransformBuffers& buf = transform_buffers(L);
    std::copy(in, in + n, buf.a.data());
    std::fill(buf.a.data() + n, buf.a.data() + L, 0.0);
    fftw_execute_dft_r2c(forward, buf.a.data(), as_fftw(buf.spectrum.data()));
    for (std::size_t k = 0; k < gain.size(); ++k) buf.spectrum.data()[k] *= gain[k];
    fftw_execute_dft_c2r(inverse, as_fftw(buf.spectrum.data()), buf.a.data());
    const double left = nearest ? in[0] : cval, right = nearest ? in[n - 1] : cval;
    for (std::int64_t i = 0; i < n; ++i)
      out[i] = buf.a.data()[i] + left * tail[static_cast<std::size_t>(i + 1)] + right * tail[static_cast<std::size_t>(n - i)];
  };
  return f;
}

LineFilter line_filter(const std::vector<double>& half, std::int64_t n, Border border, double cval) {
  switch (border) {
    case Border::wrap: return wrap_filter(half, n);
    case Border::reflect:
      return cosine_filter(n, FftwKind::dct2, FftwKind::dct3, gains(half, 2 * n, n, 2.0 * static_cast<double>(n)));
    case Border::mirror:
      return cosine_filter(n, FftwKind::dct1, FftwKind::dct1,
                           gains(half, 2 * n - 2, n, 2.0 * static_cast<double>(n - 1)));
    case Border::nearest:
    case Border::constant: return linear_filter(half, n, border, cval);
  }
  return linear_filter(half, n, border, cval);
}

}  // namespace

void fft_blur(const Plan& plan, const View& src, const View& dst) {
  // The line driver's working image is refused before FFTW plans transforms of the lines' lengths
  // (for a 2^24-sample line its tables alone are seconds of work and hundreds of MiB).
  core::packed_bytes(src, plan.schedule.intermediate, "working image");
  std::array<std::optional<LineFilter>, 3> filters;
  for (int a = 0; a < 3; ++a) {
    const auto axis = static_cast<std::size_t>(a);
    const AxisPlan& ax = plan.axes[axis];
    // A normalised symmetric kernel leaves a one-sample line alone under every extension but
    // constant (the line driver skips such lines too; DCT-I needs two points).
    if (!ax.active || ax.radius == 0) continue;
    const std::vector<double>& w = *ax.weights;  // the plan's symmetric kernel
    const std::vector<double> half(w.begin() + ax.radius, w.end());  // w_0 .. w_r
    filters[axis] = line_filter(half, src.extent[axis], ax.border, plan.spec.cval);
  }
  run_line_filters(plan, src, dst, filters);
}

}  // namespace fastblur::cpu
