#pragma once
// Each algorithm's double-precision twin: a plain computation of what the algorithm must produce (its
// equivalent convolution, or its passes written out), registered by the algorithm's own test file.
// tests/algorithms/contract_test.cpp runs every registered twin over the same grid of shapes, element
// types, borders, channels and parameter values (generated from the registry).
#include <functional>
#include <vector>

#include "fastblur/fastblur.hpp"
#include "support/test_support.hpp"

namespace fastblur::test {

struct Twin {
  Algorithm algorithm;
  /// The float accumulation budget of test::tolerance for this algorithm.
  int taps = 64;
  /// Writes the exact result of `spec` on `src` into `exact` (float64, the same shape).
  std::function<void(const View& src, const View& exact, const BlurSpec& spec)> compute;
};

inline std::vector<Twin>& twins() {
  static std::vector<Twin> list;
  return list;
}

/// For a namespace-scope `const bool` in the algorithm's test file.
inline bool register_twin(Twin twin) {
  twins().push_back(std::move(twin));
  return true;
}

/// The same for a twin that returns its result as a float64 buffer of the image (2D images).
inline bool register_twin(Algorithm algorithm, int taps, std::function<Buffer(const View&, const BlurSpec&)> exact) {
  return register_twin({algorithm, taps, [exact](const View& src, const View& out, const BlurSpec& spec) {
                          const Buffer want = exact(src, spec);
                          for (std::int64_t y = 0; y < src.height(); ++y)
                            for (std::int64_t x = 0; x < src.width(); ++x)
                              for (int c = 0; c < src.channels; ++c) set(out, x, y, 0, c, get(want.view, x, y, 0, c));
                        }});
}

}  // namespace fastblur::test
