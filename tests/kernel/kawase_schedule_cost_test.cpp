// Regression (fuzz_blur, tests/fuzz/RESULTS.md): planning a blur at sigma 1e4 hung for minutes,
// because the schedule's kernel (670 passes) was built by dense convolutions, O(passes^4). Each pass
// has four taps; convolving with those alone gives the same kernel in O(passes^3).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "fastblur/kernel.hpp"

namespace fastblur {
namespace {

// The kernel of a schedule by plain dense convolution: the definition the fast path must match.
std::vector<double> dense_kawase_kernel(const std::vector<double>& offsets) {
  std::vector<double> k{1.0};
  for (double d : offsets) {
    const std::vector<double> p = kernel::kawase_pass_weights(d);
    std::vector<double> out(k.size() + p.size() - 1, 0.0);
    for (std::size_t i = 0; i < k.size(); ++i)
      for (std::size_t j = 0; j < p.size(); ++j) out[i + j] += k[i] * p[j];
    k = out;
  }
  return k;
}

TEST(KawaseScheduleCost, SparseConvolutionGivesTheDenseKernel) {
  for (const std::vector<double>& offsets :
       {std::vector<double>{0.5, 1.5, 2.5, 2.5, 3.5}, std::vector<double>{0.0, 0.25, 7.75, 3.0},
        kernel::kawase_schedule(9.0), kernel::kawase_schedule(40.0, 12)}) {
    const std::vector<double> want = dense_kawase_kernel(offsets), got = kernel::kawase_kernel(offsets);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], want[i]) << i;
  }
}

TEST(KawaseScheduleCost, TheLargestSigmaIsSolvedInSeconds) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<double> s = kernel::kawase_schedule(1e4);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double variance = 0.0;
  for (double d : s) variance += kernel::kawase_pass_variance(d);
  EXPECT_NEAR(std::sqrt(variance), 1e4, 1e-6);
  EXPECT_LT(seconds, 60.0) << s.size() << " passes";  // minutes before; ~1 s in a release build
  std::printf("[ timing   ] kawase_schedule(1e4): %zu passes in %.2f s\n", s.size(), seconds);
}

}  // namespace
}  // namespace fastblur
