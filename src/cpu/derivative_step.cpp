// derivative_sum_step (fastblur/derivative_step.hpp): NumPy's element-wise steps of SciPy's
// generic_laplace / generic_gradient_magnitude fused into one threaded loop per axis, in Highway's
// vectors for the target it dispatches to. Each operation is still rounded to the type on its own
// (x * x, then + t * t, then sqrt: no fused multiply-add, IEEE's correctly rounded root), as NumPy's
// separate ufunc calls round them, so the bits are SciPy's.
#include <omp.h>

#include <cstdint>
#include <string>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/cpu/derivative_step.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include "fastblur/derivative_step.hpp"
#include "fastblur/error.hpp"

#pragma GCC optimize("fp-contract=off")

HWY_BEFORE_NAMESPACE();
namespace fastblur::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One step over n values; the flags are template arguments so that the loop holds only its arithmetic.
template <class T, bool kMagnitude, bool kFirst, bool kTerm, bool kLast>
void StepLoop(T* HWY_RESTRICT sum, const T* HWY_RESTRICT term, std::int64_t n) {
  const hn::ScalableTag<T> d;
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  const auto one = [&](auto dd, std::int64_t i) {
    auto s = hn::LoadU(dd, sum + i);
    if constexpr (kMagnitude && kFirst) s = hn::Mul(s, s);
    if constexpr (kTerm) {
      auto t = hn::LoadU(dd, term + i);
      if constexpr (kMagnitude) t = hn::Mul(t, t);
      s = hn::Add(s, t);
    }
    if constexpr (kMagnitude && kLast) s = hn::Sqrt(s);
    hn::StoreU(s, dd, sum + i);
  };
  std::int64_t i = 0;
  for (; i + N <= n; i += N) one(d, i);
  const hn::CappedTag<T, 1> d1;
  for (; i < n; ++i) one(d1, i);
}

template <class T>
void StepRun(bool magnitude, T* sum, const T* term, std::int64_t n, bool first, bool last) {
  if (!magnitude) {
    if (term) StepLoop<T, false, false, true, false>(sum, term, n);
    return;
  }
  switch ((first ? 4 : 0) | (term ? 2 : 0) | (last ? 1 : 0)) {
    case 0: return;  // neither squared, added nor rooted
    case 1: return StepLoop<T, true, false, false, true>(sum, term, n);
    case 2: return StepLoop<T, true, false, true, false>(sum, term, n);
    case 3: return StepLoop<T, true, false, true, true>(sum, term, n);
    case 4: return StepLoop<T, true, true, false, false>(sum, term, n);
    case 5: return StepLoop<T, true, true, false, true>(sum, term, n);
    case 6: return StepLoop<T, true, true, true, false>(sum, term, n);
    default: return StepLoop<T, true, true, true, true>(sum, term, n);
  }
}

void StepF64(bool magnitude, double* sum, const double* term, std::int64_t n, bool first, bool last) {
  StepRun(magnitude, sum, term, n, first, last);
}
void StepF32(bool magnitude, float* sum, const float* term, std::int64_t n, bool first, bool last) {
  StepRun(magnitude, sum, term, n, first, last);
}

}  // namespace fastblur::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace fastblur {
HWY_EXPORT(StepF64);
HWY_EXPORT(StepF32);

namespace {

template <class T, class Run>
void step(Run run, bool magnitude, T* sum, const T* term, std::int64_t n, bool first, bool last, int threads) {
  if (threads <= 1) {
    run(magnitude, sum, term, n, first, last);
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    const std::int64_t t = omp_get_thread_num(), k = omp_get_num_threads();
    const std::int64_t i0 = n * t / k, i1 = n * (t + 1) / k;
    run(magnitude, sum + i0, term ? term + i0 : nullptr, i1 - i0, first, last);
  }
}

}  // namespace

void derivative_sum_step(DerivativeSum kind, ElementType type, void* sum, const void* term, std::size_t count,
                         bool first, bool last, int threads) {
  if (threads <= 0) threads = omp_get_max_threads();
  // Small arrays on one thread: a parallel region costs more than it saves.
  if (count < (1u << 15)) threads = 1;
  const auto n = static_cast<std::int64_t>(count);
  const bool magnitude = kind == DerivativeSum::gradient_magnitude;
  if (type == ElementType::f64)
    step(HWY_DYNAMIC_DISPATCH(StepF64), magnitude, static_cast<double*>(sum), static_cast<const double*>(term), n, first,
         last, threads);
  else if (type == ElementType::f32)
    step(HWY_DYNAMIC_DISPATCH(StepF32), magnitude, static_cast<float*>(sum), static_cast<const float*>(term), n, first,
         last, threads);
  else
    throw InvalidArgument("derivative_sum_step takes float32 or float64 (" + std::string(to_string(type)) + " given)");
}

}  // namespace fastblur
#endif  // HWY_ONCE
