// SciPy's order on one line of interleaved RGB values, an output at a time: uint8 through the
// certified float32 sums (cpu/scipy_int_certified) against the double sums (cpu/ordered_correlate),
// on noise, a flat line and one level of noise; the time an output in the "per_output" counter. And
// the x pass's taps (x_taps): one row's (step 1, seven of eight loads across a cache line) against
// eight rows interleaved (step 8, whole aligned vectors), the line in L1. And the y pass's row pairs
// (row_pairs) over rows of 512 to 10200 values.
//
//   ./build/bench/fastblur_scipy_rows_bench
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "hwy/aligned_allocator.h"

#include "cpu/ordered_correlate.hpp"
#include "cpu/scipy_int_certified.hpp"
#include "fastblur/kernel.hpp"

namespace {

constexpr std::size_t kOutputs = 5100;  // a 1700-pixel RGB row
constexpr std::ptrdiff_t kStep = 3;

// kind 0: noise; 1: flat; 2: one level of noise (a photo's flat area).
std::vector<std::uint8_t> line_of(int kind, std::size_t n) {
  std::mt19937 rng(1);
  std::vector<std::uint8_t> v(n);
  for (auto& x : v) x = static_cast<std::uint8_t>(kind == 0 ? rng() % 256 : kind == 1 ? 100 : 100 + (rng() % 3 == 0));
  return v;
}

void certified(benchmark::State& st) {
  const double sigma = static_cast<double>(st.range(0)) / 10.0;
  const auto w = fastblur::kernel::gaussian_weights(sigma, fastblur::kernel::radius_from_truncate(sigma, 4.0));
  const auto k = fastblur::cpu::certified_int_axis(w, fastblur::ElementType::u8);
  const auto bytes = line_of(static_cast<int>(st.range(1)), kOutputs + 2 * kStep * k.radius);
  std::vector<float> line(bytes.size());
  fastblur::cpu::widen_ints(fastblur::ElementType::u8, bytes.data(), line.data(), bytes.size());
  std::vector<std::uint8_t> out(kOutputs);
  for (auto _ : st) {
    fastblur::cpu::certified_int_line(line.data() + kStep * k.radius, kStep, out.data(), kOutputs, k);
    benchmark::DoNotOptimize(out.data());
  }
  st.counters["per_output"] = benchmark::Counter(static_cast<double>(st.iterations()) * kOutputs,
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void doubles(benchmark::State& st) {
  const double sigma = static_cast<double>(st.range(0)) / 10.0;
  const int radius = fastblur::kernel::radius_from_truncate(sigma, 4.0);
  const auto w = fastblur::kernel::gaussian_weights(sigma, radius);
  const auto bytes = line_of(static_cast<int>(st.range(1)), kOutputs + 2 * kStep * radius);
  const std::vector<double> line(bytes.begin(), bytes.end());
  std::vector<double> out(kOutputs);
  for (auto _ : st) {
    fastblur::cpu::ordered_correlate(line.data() + kStep * radius, out.data(), kOutputs, w.data() + radius, radius, radius, 1,
                                     kStep);
    benchmark::DoNotOptimize(out.data());
  }
  st.counters["per_output"] = benchmark::Counter(static_cast<double>(st.iterations()) * kOutputs,
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// ordered_correlate over a line of 1400 outputs a row (step 1) or of 8 rows interleaved (step 8, the
// same outputs a row): radius st.range(0), step st.range(1).
void x_taps(benchmark::State& st) {
  const int radius = static_cast<int>(st.range(0));
  const auto step = static_cast<std::size_t>(st.range(1));
  constexpr std::size_t kRow = 1400;
  const std::vector<double> w(2 * static_cast<std::size_t>(radius) + 1, 1.0 / (2 * radius + 1));
  const std::size_t len = (kRow + 2 * static_cast<std::size_t>(radius)) * step;
  auto line = hwy::AllocateAligned<double>(len);  // 64-byte aligned: step 8's taps are whole cache lines
  auto out = hwy::AllocateAligned<double>(kRow * step);
  for (std::size_t i = 0; i < len; ++i) line[i] = static_cast<double>(i % 97) * 0.01;
  for (auto _ : st) {
    fastblur::cpu::ordered_correlate(line.get() + radius * step, out.get(), kRow * step, w.data() + radius, radius,
                                     radius, 1, step);
    benchmark::DoNotOptimize(out.get());
  }
  st.counters["per_output"] = benchmark::Counter(static_cast<double>(st.iterations()) * static_cast<double>(kRow * step),
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// The y pass's row pairs (certified_int_rows_pair) over tap rows of st.range(1) values, noise: a
// 1700-pixel RGB row's 5100 (the ring of 2r + 2 rows in L2) against narrower rows (in L1).
void row_pairs(benchmark::State& st) {
  const double sigma = static_cast<double>(st.range(0)) / 10.0;
  const auto w = fastblur::kernel::gaussian_weights(sigma, fastblur::kernel::radius_from_truncate(sigma, 4.0));
  const auto k = fastblur::cpu::certified_int_axis(w, fastblur::ElementType::u8);
  const auto n = static_cast<std::size_t>(st.range(1));
  const std::size_t taps = 2 * static_cast<std::size_t>(k.radius) + 2;
  // One ring, rows an odd number of cache lines apart (as the driver's ring_pitch): no two rows'
  // same offsets in one L1 set.
  const std::size_t pitch = (((n + 15) / 16) | 1) * 16;
  auto ring = hwy::AllocateAligned<float>(taps * pitch);
  std::mt19937 rng(1);
  for (std::size_t i = 0; i < taps * pitch; ++i) ring[i] = static_cast<float>(rng() % 256);
  std::vector<const float*> at;
  for (std::size_t t = 0; t < taps; ++t) at.push_back(ring.get() + t * pitch);
  std::vector<float> a(n), b(n);
  for (auto _ : st) {
    fastblur::cpu::certified_int_rows_pair(at.data() + k.radius, a.data(), b.data(), n, k);
    benchmark::DoNotOptimize(a.data());
    benchmark::DoNotOptimize(b.data());
  }
  st.counters["per_output"] = benchmark::Counter(static_cast<double>(st.iterations()) * 2.0 * static_cast<double>(n),
                                                    benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// sigma x 10, the line's kind
BENCHMARK(certified)->ArgsProduct({{12, 30}, {0, 1, 2}});
BENCHMARK(doubles)->ArgsProduct({{12, 30}, {0, 1, 2}});
// sigma x 10, a row's values
BENCHMARK(row_pairs)->ArgsProduct({{12, 20}, {512, 1024, 5100, 10200}});
// radius, step
BENCHMARK(x_taps)->ArgsProduct({{4, 6, 12}, {1, 8}});

}  // namespace

BENCHMARK_MAIN();
