#include "cpu/fft_spectrum.hpp"

#include <algorithm>

#include "cpu/fftw_plans.hpp"

namespace fastblur::cpu {

std::vector<double> fold_symmetric_kernel(const std::vector<double>& half, std::int64_t period) {
  std::vector<double> folded(static_cast<std::size_t>(period), 0.0);
  const std::int64_t r = static_cast<std::int64_t>(half.size()) - 1;
  // Outermost taps first: the small weights are summed before the large ones join them.
  for (std::int64_t j = r; j >= 1; --j) {
    const double w = half[static_cast<std::size_t>(j)];
    folded[static_cast<std::size_t>(j % period)] += w;
    folded[static_cast<std::size_t>((period - j % period) % period)] += w;
  }
  folded[0] += half[0];
  return folded;
}

std::vector<double> symmetric_kernel_spectrum(const std::vector<double>& half, std::int64_t period) {
  const std::vector<double> folded = fold_symmetric_kernel(half, period);
  const std::size_t bins = static_cast<std::size_t>(period / 2 + 1);
  AlignedArray<double> signal;
  AlignedArray<std::complex<double>> spectrum;
  signal.reserve(folded.size());
  spectrum.reserve(bins);
  std::copy(folded.begin(), folded.end(), signal.data());
  fftw_execute_dft_r2c(fftw_plan_for(FftwKind::r2c, period), signal.data(), as_fftw(spectrum.data()));
  std::vector<double> lambda(bins);
  for (std::size_t k = 0; k < bins; ++k) lambda[k] = spectrum.data()[k].real();  // imaginary parts are rounding
  return lambda;
}

}  // namespace fastblur::cpu
