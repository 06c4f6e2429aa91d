// fastblur bench: a short version of bench/cpu_bench.cpp for the user's own machine - fastblur exact
// and within max error 1e-2 on a few cases of docs/DESIGN.md's grid, against the machine's measured copy
// bandwidth (the floor of any blur that reads and writes each value once). No peers: they are
// benchmark-only dependencies of the full benchmark.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "commands.hpp"
#include "progress.hpp"
#include "fastblur/fastblur.hpp"
#include "parse.hpp"

namespace fastblur::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct BenchOptions {
  std::string size = "1920x1080";
  int threads = 0;
  int repeats = 5;
  bool quick = false;
};

double median_ms(const std::function<void()>& fn, int repeats) {
  fn();  // warm-up: first-touch pages, scratch, plans
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    const auto start = Clock::now();
    fn();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}


int run_bench(const BenchOptions& o) {
  if (o.repeats < 1 || o.repeats > 1000) throw InvalidArgument("--repeats must be 1 to 1000");
  check_threads(o.threads, OptionNames::command_line());  // the core's rule (validate.hpp)
  std::int64_t w = 0, h = 0;
  const std::string size = o.quick ? "1280x720" : o.size;
  const auto x = size.find('x');
  try {
    if (x == std::string::npos) throw std::invalid_argument("no x");
    w = std::stoll(size.substr(0, x));
    h = std::stoll(size.substr(x + 1));
  } catch (const std::exception&) {
    throw InvalidArgument("--size is '" + size + "': expected WIDTHxHEIGHT, e.g. 1920x1080");
  }
  if (w < 16 || h < 16 || w * h > (std::int64_t{1} << 28)) throw InvalidArgument("--size must be 16x16 to 256 Mpix");
  const int repeats = o.quick ? 1 : o.repeats;
  struct Format {
    const char* name;
    ElementType type;
  };
  const Format formats[] = {{"RGBA8", ElementType::u8}, {"RGBA32F", ElementType::f32}};
  struct Kernel {
    const char* name;
    double sigma;
  };
  const Kernel kernels[] = {{"k7", 1.0}, {"k35", 34.0 / 6}, {"s20", 20.0}};
  Progress progress(1 + 2 * 3 * 2);

  // The copy floor: a parallel memcpy on the same threads, read + write, of 256 MiB (or the largest
  // image if larger) so that main memory, not a cache, is measured; it doubles as the image buffers.
  const std::size_t bytes = std::max<std::size_t>(std::size_t{256} << 20, static_cast<std::size_t>(w * h * 4) * 4);
  std::vector<std::byte> a(bytes), b(bytes);
  std::memset(a.data(), 1, bytes);
  std::memset(b.data(), 2, bytes);
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  const double copy_ms = median_ms([&] {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int i = 0; i < threads; ++i) {
      const std::size_t lo = bytes / static_cast<std::size_t>(threads) * static_cast<std::size_t>(i);
      const std::size_t hi = i + 1 == threads ? bytes : bytes / static_cast<std::size_t>(threads) * static_cast<std::size_t>(i + 1);
      std::memcpy(b.data() + lo, a.data() + lo, hi - lo);
    }
  }, std::max(repeats, 5));
  const double gbs = 2.0 * static_cast<double>(bytes) / copy_ms / 1e6;
  progress.step("copy bandwidth");

  std::mt19937 rng(7);
  std::uniform_int_distribution<int> u(0, 255);
  for (auto& v : a) v = static_cast<std::byte>(u(rng) & 0x3f);  // finite floats, any bytes
  struct Result {
    std::string name, exact_alg, tol_alg;
    double exact = 0, tol = 0, floor = 0;
  };
  std::vector<Result> results;
  for (const Format& f : formats)
    for (const Kernel& k : kernels) {
      const View in = View::packed(a.data(), f.type, w, h, 1, 4), out = View::packed(b.data(), f.type, w, h, 1, 4);
      Result r;
      r.name = std::string(f.name) + " " + k.name;
      r.floor = 2.0 * static_cast<double>(w * h * 4) * static_cast<double>(element_size(f.type)) / gbs / 1e6;
      for (double tolerance : {0.0, 1e-2}) {
        BlurSpec spec = BlurSpec::isotropic_2d(k.sigma);
        spec.tolerance = tolerance;
        spec.threads = o.threads;
        const Plan plan = make_plan(spec, in);
        const double ms = median_ms([&] { blur(in, out, plan); }, repeats);
        (tolerance == 0 ? r.exact : r.tol) = ms;
        (tolerance == 0 ? r.exact_alg : r.tol_alg) = std::string(to_string(plan.spec.algorithm));
        progress.step(r.name + (tolerance == 0 ? " exact" : " within 1e-2"));
      }
      results.push_back(r);
    }
  std::printf("fastblur %s, %lldx%lld, %s threads; copy bandwidth %.1f GB/s (read + write)\n", FASTBLUR_VERSION_STRING,
              static_cast<long long>(w), static_cast<long long>(h),
              o.threads ? std::to_string(o.threads).c_str() : "all", gbs);
  std::printf("%-12s %10s %-14s %10s %-14s %9s %9s %9s\n", "case", "exact ms", "(algorithm)", "1e-2 ms", "(algorithm)",
              "floor ms", "x floor", "x floor");
  for (const Result& r : results)
    std::printf("%-12s %10.2f %-14s %10.2f %-14s %9.3f %9.1f %9.1f\n", r.name.c_str(), r.exact,
                ("(" + r.exact_alg + ")").c_str(), r.tol, ("(" + r.tol_alg + ")").c_str(), r.floor, r.exact / r.floor,
                r.tol / r.floor);
  std::printf("'x floor': the time over one read and one write of the image at the measured copy bandwidth.\n"
              "The full comparison with OpenCV and libvips: build/bench/fastblur_bench (see README).\n");
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand("bench", "Time fastblur on this machine (exact and within 1e-2) against its copy "
                                              "bandwidth, on a few cases of the benchmark grid");
  sub->add_option("--size", o->size, "Image size WxH")->capture_default_str();
  sub->add_option("-j,--threads", o->threads, "Threads; 0 uses every core")->capture_default_str();
  sub->add_option("--repeats", o->repeats, "Timed runs per case; the median is reported")->capture_default_str();
  sub->add_flag("--quick", o->quick, "720p, one timed run per case: a check that it runs");
  return {sub, [o] { return run_bench(*o); }};
}

}  // namespace fastblur::cli
