#include "cpu/fftw_plans.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "fastblur/error.hpp"

namespace fastblur::cpu {
namespace {

// Owns the plans; destroys them at exit.
class PlanCache {
 public:
  ~PlanCache() {
    for (auto& [key, plan] : plans_) fftw_destroy_plan(plan);
  }

  fftw_plan get(FftwKind kind, int n) {
    const std::lock_guard<std::mutex> lock(mutex_);
    auto it = plans_.find({kind, n});
    if (it != plans_.end()) return it->second;
    const fftw_plan plan = make(kind, n);
    if (!plan) throw Unsupported("FFTW could not plan a transform of length " + std::to_string(n));
    plans_.emplace(std::make_pair(kind, n), plan);
    return plan;
  }

 private:
  // FFTW_ESTIMATE never touches the arrays, but the plan records their alignment and that they are
  // distinct, so they must be like the ones it will be executed on.
  static fftw_plan make(FftwKind kind, int n) {
    AlignedArray<double> real_in, real_out;
    AlignedArray<std::complex<double>> spectrum;
    real_in.reserve(static_cast<std::size_t>(n));
    real_out.reserve(static_cast<std::size_t>(n));
    spectrum.reserve(static_cast<std::size_t>(n / 2 + 1));
    switch (kind) {
      case FftwKind::r2c: return fftw_plan_dft_r2c_1d(n, real_in.data(), as_fftw(spectrum.data()), FFTW_ESTIMATE);
      case FftwKind::c2r: return fftw_plan_dft_c2r_1d(n, as_fftw(spectrum.data()), real_out.data(), FFTW_ESTIMATE);
      case FftwKind::dct2: return fftw_plan_r2r_1d(n, real_in.data(), real_out.data(), FFTW_REDFT10, FFTW_ESTIMATE);
      case FftwKind::dct3: return fftw_plan_r2r_1d(n, real_in.data(), real_out.data(), FFTW_REDFT01, FFTW_ESTIMATE);
      case FftwKind::dct1: return fftw_plan_r2r_1d(n, real_in.data(), real_out.data(), FFTW_REDFT00, FFTW_ESTIMATE);
    }
    return nullptr;
  }

  std::mutex mutex_;
  std::map<std::pair<FftwKind, int>, fftw_plan> plans_;
};

}  // namespace

std::int64_t fftw_fast_length(std::int64_t min_length) {
  for (std::int64_t m = std::max<std::int64_t>(min_length, 1);; ++m) {
    std::int64_t rest = m;
    for (std::int64_t p : {2, 3, 5, 7})
      while (rest % p == 0) rest /= p;
    if (rest == 1) return m;
  }
}

fftw_plan fftw_plan_for(FftwKind kind, std::int64_t n) {
  if (n < 1 || n > INT_MAX || (kind == FftwKind::dct1 && n < 2))
    throw Unsupported("an FFT of length " + std::to_string(n) + " is not possible (FFTW takes 1.." +
                      std::to_string(INT_MAX) + " points, at least 2 for a DCT-I)");
  static PlanCache cache;
  return cache.get(kind, static_cast<int>(n));
}

}  // namespace fastblur::cpu
