#pragma once
// FFTW plans shared by every thread. Only fftw_execute and its new-array variants are thread-safe
// (FFTW manual, "Thread safety"); the planner is not. So each plan is made once per (kind, length)
// under a mutex and kept until exit, and lines are transformed with the new-array functions on
// buffers that have the alignment the plans were made with.
#include <fftw3.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>

#include "fastblur/error.hpp"

namespace fastblur::cpu {

/// The transforms the fft algorithm uses, by FFTW's names.
enum class FftwKind {
  r2c,    ///< real to half-complex spectrum (k = 0..n/2), unnormalised
  c2r,    ///< its inverse times n
  dct2,   ///< FFTW_REDFT10: X_k = 2 sum_j x_j cos(pi k (2j+1) / (2n))
  dct3,   ///< FFTW_REDFT01: the inverse of dct2 times 2n
  dct1,   ///< FFTW_REDFT00 (n >= 2): its own inverse times 2(n-1)
};

/// The plan for `kind` on `n` points, out of place, made on first use (FFTW_ESTIMATE, so results do
/// not depend on timing). Safe to call from any thread; the plan must be executed with
/// fftw_execute_dft_r2c / _dft_c2r / _r2r on distinct arrays from AlignedArray. Throws Unsupported
/// for a length FFTW's int cannot hold.
fftw_plan fftw_plan_for(FftwKind kind, std::int64_t n);

/// The smallest length >= min_length whose only prime factors are 2, 3, 5 and 7, the lengths FFTW
/// transforms fastest (its codelets cover these radices).
std::int64_t fftw_fast_length(std::int64_t min_length);

/// The alignment of every array handed to a plan (at least FFTW's SIMD alignment).
inline constexpr std::size_t kFftwAlignment = 64;

/// A grow-only array of T aligned to kFftwAlignment. Contents are unspecified after a resize.
template <class T>
class AlignedArray {
 public:
  T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  /// Makes room for at least n elements.
  void reserve(std::size_t n) {
    if (n <= size_) return;
    data_.reset();  // free first, so the old and new buffers never coexist
    size_ = 0;
    try {
      data_.reset(static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{kFftwAlignment})));
    } catch (const std::bad_alloc&) {
      throw OutOfMemory("cannot allocate " + std::to_string(n * sizeof(T)) + " bytes for an FFT buffer");
    }
    size_ = n;
  }

 private:
  struct Free {
    void operator()(T* p) const { ::operator delete(p, std::align_val_t{kFftwAlignment}); }
  };
  std::unique_ptr<T, Free> data_;
  std::size_t size_ = 0;
};

/// std::complex<double> has fftw_complex's layout (FFTW manual, "Complex numbers").
inline fftw_complex* as_fftw(std::complex<double>* p) { return reinterpret_cast<fftw_complex*>(p); }

}  // namespace fastblur::cpu
