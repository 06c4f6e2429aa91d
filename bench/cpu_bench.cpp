// fastblur on the CPU against OpenCV (cv::GaussianBlur) and libvips (vips_gaussblur) on the seed
// grid of docs/DESIGN.md - kernel sizes 7, 35, 127 (sigma = (size-1)/6) and sigma 20, 50, at 720p to 4K,
// RGBA8 / RGBA16F / RGBA32F / R32F / RGBA16 (uint16) - and the 256^3 float volume at sigma 1, 4, 16 (512^3 and
// 8192x8192 RGBA32F too, beyond the caches), every library on
// the same threads and the same kernel (radius int(4 sigma + 0.5)). fastblur runs twice per case:
// exact (tolerance 0: fir, or fft or sliding-dct fitted to fir's kernel where cheaper) and within max error 1e-2 (volumes: 1e-3), the planner's choice.
// Each image is also copied by the same threads in the same run (copy/<format>/<shape>), so each
// case reads as a multiple of its copy floor (one read and one write of that image; the 256 MiB
// memcpy bandwidth printed above the table is the fallback for a case whose copy was filtered out). The volume is also
// timed at border nearest against ITK's SmoothingRecursiveGaussianImageFilter when ITK is installed
// (bench/itk_peer.cpp), each with its measured max error. Prints Google Benchmark's table, then
// the summary tables.
#include <benchmark/benchmark.h>
#include <omp.h>
#include <vips/vips.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "fastblur/fastblur.hpp"
#ifdef FASTBLUR_BENCH_ITK
#include "itk_peer.hpp"
#endif

namespace {

struct Format {
  const char* name;
  fastblur::ElementType type;
  int channels;
  int cv_depth;          // -1: OpenCV's GaussianBlur does not take it
  VipsBandFormat vips;   // VIPS_FORMAT_NOTSET: not compared
};
const Format kFormats[] = {{"RGBA8", fastblur::ElementType::u8, 4, CV_8U, VIPS_FORMAT_UCHAR},
                           {"RGBA16F", fastblur::ElementType::f16, 4, -1, VIPS_FORMAT_NOTSET},
                           {"RGBA32F", fastblur::ElementType::f32, 4, CV_32F, VIPS_FORMAT_FLOAT},
                           {"R32F", fastblur::ElementType::f32, 1, CV_32F, VIPS_FORMAT_FLOAT},
                           {"RGBA16", fastblur::ElementType::u16, 4, CV_16U, VIPS_FORMAT_USHORT}};
struct Shape {
  std::int64_t w, h, d;
  std::string name() const {
    return d > 1 ? std::to_string(w) + "^3" : std::to_string(w) + "x" + std::to_string(h);
  }
};
const Shape kSizes[] = {{1280, 720, 1}, {1920, 1080, 1}, {2560, 1600, 1}, {3840, 2160, 1}};
struct Kernel {
  std::string name;
  double sigma;
};
const Kernel kKernels[] = {{"k7", 1.0}, {"k35", 34.0 / 6}, {"k127", 21.0}, {"s20", 20.0}, {"s50", 50.0}};

int threads() { return omp_get_max_threads(); }

// One image per (format, shape), random, kept for every library.
std::vector<std::byte>& image_of(const Format& f, const Shape& s) {
  static std::map<std::string, std::vector<std::byte>> images;
  auto& img = images[std::string(f.name) + s.name()];
  if (img.empty()) {
    const std::size_t count = static_cast<std::size_t>(s.w * s.h * s.d * f.channels);
    img.resize(count * fastblur::element_size(f.type));
    std::vector<float> values(count);
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    const float scale = f.type == fastblur::ElementType::u8 ? 255.0f : f.type == fastblur::ElementType::u16 ? 65535.0f : 1.0f;
    for (float& v : values) v = u(rng) * scale;
    fastblur::blur(fastblur::View::packed(values.data(), fastblur::ElementType::f32, s.w, s.h, s.d, f.channels),
                   fastblur::View::packed(img.data(), f.type, s.w, s.h, s.d, f.channels), fastblur::BlurSpec{});
  }
  return img;
}

struct Row {
  double ms = 0.0, bytes = 0.0;
  double max_error = -1.0;  // volume rows against ITK: max |out - f64 reference|; -1 not measured
};
std::map<std::string, Row>& rows() {
  static std::map<std::string, Row> r;
  return r;
}
void record(benchmark::State& st, const std::string& id, const Format& f, const Shape& s) {
  const double bytes = 2.0 * static_cast<double>(s.w * s.h * s.d * f.channels) * fastblur::element_size(f.type);
  st.counters["GB/s"] = benchmark::Counter(bytes * static_cast<double>(st.iterations()) / 1e9, benchmark::Counter::kIsRate);
  rows()[id].bytes = bytes;
}

// Times fastblur's plan of `spec` on the benchmark's image of (f, s); returns its output.
std::vector<std::byte> time_fastblur(benchmark::State& st, const std::string& id, const Format& f, const Shape& s,
                                     const fastblur::BlurSpec& spec) {
  std::vector<std::byte>& src = image_of(f, s);
  std::vector<std::byte> dst(src.size());
  const fastblur::View in = fastblur::View::packed(src.data(), f.type, s.w, s.h, s.d, f.channels);
  const fastblur::View out = fastblur::View::packed(dst.data(), f.type, s.w, s.h, s.d, f.channels);
  const fastblur::Plan plan = fastblur::make_plan(spec, in);
  fastblur::blur(in, out, plan.spec);  // warm-up: first-touch page faults, scratch, plans
  for (auto _ : st) fastblur::blur(in, out, plan.spec);
  st.SetLabel(std::string(fastblur::to_string(plan.spec.algorithm)));
  record(st, id, f, s);
  return dst;
}

void bench_fastblur(benchmark::State& st, std::string id, Format f, Shape s, double sigma, double tolerance) {
  fastblur::BlurSpec spec;
  spec.sigma = {sigma, sigma, s.d > 1 ? sigma : 0.0};
  spec.tolerance = tolerance;
  time_fastblur(st, id, f, s, spec);
}

void bench_opencv(benchmark::State& st, std::string id, Format f, Shape s, double sigma) {
  cv::setNumThreads(threads());
  std::vector<std::byte>& bytes = image_of(f, s);
  cv::Mat src(static_cast<int>(s.h), static_cast<int>(s.w), CV_MAKETYPE(f.cv_depth, f.channels), bytes.data()), dst;
  const int r = fastblur::kernel::radius_from_truncate(sigma, 4.0);
  cv::GaussianBlur(src, dst, cv::Size(2 * r + 1, 2 * r + 1), sigma, sigma, cv::BORDER_REFLECT);  // warm-up
  for (auto _ : st) cv::GaussianBlur(src, dst, cv::Size(2 * r + 1, 2 * r + 1), sigma, sigma, cv::BORDER_REFLECT);
  record(st, id, f, s);
}

void bench_vips(benchmark::State& st, std::string id, Format f, Shape s, double sigma) {
  vips_concurrency_set(threads());
  std::vector<std::byte>& bytes = image_of(f, s);
  // vips_gaussblur's mask reaches where the Gaussian falls to min_ampl of its peak: exp(-8) is
  // radius 4 sigma, the others' truncation. vips computes lazily: writing to memory forces it.
  const auto run = [&] {
    VipsImage* in = vips_image_new_from_memory(bytes.data(), bytes.size(), static_cast<int>(s.w), static_cast<int>(s.h),
                                               f.channels, f.vips);
    VipsImage* out = nullptr;
    if (!in || vips_gaussblur(in, &out, sigma, "min_ampl", std::exp(-8.0) * 0.999, nullptr)) {
      if (in) g_object_unref(in);
      return false;
    }
    std::size_t size = 0;
    void* mem = vips_image_write_to_memory(out, &size);
    g_free(mem);
    g_object_unref(out);
    g_object_unref(in);
    return mem != nullptr;
  };
  if (!run()) {
    st.SkipWithError(vips_error_buffer());
    vips_error_clear();
    return;
  }
  for (auto _ : st) run();
  record(st, id, f, s);
}

// `bytes` from src to dst by the benchmark's threads, one slab each.
void parallel_copy(char* dst, const char* src, std::size_t bytes) {
  const int t = threads();
#pragma omp parallel for num_threads(t) schedule(static)
  for (int i = 0; i < t; ++i) {
    const std::size_t lo = bytes / t * i, hi = i + 1 == t ? bytes : bytes / t * (i + 1);
    std::memcpy(dst + lo, src + lo, hi - lo);
  }
}

// The floor of a case: the benchmark's threads copying the same image into a buffer of its size
// (one read and one write of it, the least any blur can move), timed in the same run as the blurs.
void bench_copy(benchmark::State& st, std::string id, Format f, Shape s) {
  std::vector<std::byte>& src = image_of(f, s);
  std::vector<std::byte> dst(src.size());
  const auto copy = [&] {
    parallel_copy(reinterpret_cast<char*>(dst.data()), reinterpret_cast<const char*>(src.data()), src.size());
  };
  copy();  // first touch of dst
  for (auto _ : st) copy();
  record(st, id, f, s);
}

// The volume rows against ITK are compared at the same border (ITK extends by edge values, our
// Border::nearest) and report their max error against a float64 fir of the same random volume,
// so "equal or better accuracy" is measured, not assumed.
const Shape kVolume{256, 256, 256};
const std::vector<double>& volume_reference(double sigma) {
  static std::map<double, std::vector<double>> refs;
  std::vector<double>& ref = refs[sigma];
  if (ref.empty()) {
    std::vector<std::byte>& src = image_of(kFormats[3], kVolume);
    ref.resize(static_cast<std::size_t>(kVolume.w * kVolume.h * kVolume.d));
    fastblur::BlurSpec spec = fastblur::BlurSpec::isotropic_3d(sigma).with_border(fastblur::Border::nearest);
    spec.algorithm = fastblur::Algorithm::fir;
    fastblur::blur(fastblur::View::packed(src.data(), fastblur::ElementType::f32, kVolume.w, kVolume.h, kVolume.d, 1),
                   fastblur::View::packed(ref.data(), fastblur::ElementType::f64, kVolume.w, kVolume.h, kVolume.d, 1), spec);
  }
  return ref;
}
// Max |out - reference| over the volume; records it on the row and as a counter.
void report_max_error(benchmark::State& st, const std::string& id, const float* out, double sigma) {
  const std::vector<double>& ref = volume_reference(sigma);
  double worst = 0.0;
  for (std::size_t i = 0; i < ref.size(); ++i) worst = std::max(worst, std::abs(static_cast<double>(out[i]) - ref[i]));
  rows()[id].max_error = worst;
  st.counters["max_err"] = worst;
}

// fastblur on the volume with border nearest: the planner within `tolerance`, or `algorithm` by name.
void bench_volume_nearest(benchmark::State& st, std::string id, double sigma, double tolerance, fastblur::Algorithm algorithm) {
  fastblur::BlurSpec spec = fastblur::BlurSpec::isotropic_3d(sigma).with_border(fastblur::Border::nearest);
  spec.algorithm = algorithm;
  spec.tolerance = tolerance;
  const std::vector<std::byte> out = time_fastblur(st, id, kFormats[3], kVolume, spec);
  report_max_error(st, id, reinterpret_cast<const float*>(out.data()), sigma);
}

#ifdef FASTBLUR_BENCH_ITK
void bench_itk(benchmark::State& st, std::string id, double sigma) {
  std::vector<std::byte>& src = image_of(kFormats[3], kVolume);
  const auto* in = reinterpret_cast<const float*>(src.data());
  std::vector<float> dst(src.size() / sizeof(float));
  fastblur_bench::itk_recursive_gaussian(in, dst.data(), kVolume.w, kVolume.h, kVolume.d, sigma, threads());
  for (auto _ : st) fastblur_bench::itk_recursive_gaussian(in, dst.data(), kVolume.w, kVolume.h, kVolume.d, sigma, threads());
  record(st, id, kFormats[3], kVolume);
  report_max_error(st, id, dst.data(), sigma);
}
#endif

// Copy bandwidth with the benchmark's threads: the best of a few parallel memcpys of 256 MiB,
// counting bytes read plus written.
double copy_bandwidth_gbs() {
  const std::size_t bytes = 256u << 20;
  std::vector<char> a(bytes, 1), b(bytes, 2);
  double best = 0.0;
  for (int rep = 0; rep < 5; ++rep) {
    const auto start = std::chrono::steady_clock::now();
    parallel_copy(b.data(), a.data(), bytes);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, 2.0 * static_cast<double>(bytes) / s / 1e9);
  }
  return best;
}

class TableReporter : public benchmark::ConsoleReporter {
 public:
  explicit TableReporter(double copy_gbs) : copy_gbs_(copy_gbs) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs)
      if (!r.error_occurred && (r.run_type == Run::RT_Iteration || r.aggregate_name == "median")) {
        Row& row = rows()[r.run_name.function_name];
        row.ms = r.GetAdjustedRealTime();  // in the benchmark's unit: milliseconds
        if (!r.report_label.empty()) labels_[r.run_name.function_name] = r.report_label;
      }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nthreads %d; copy bandwidth (parallel memcpy, read + write) %.1f GB/s\n", threads(), copy_gbs_);
    std::printf("%-24s %9s %-12s %9s %-12s %9s %9s %8s %8s %8s %8s\n", "case", "exact ms", "(algorithm)", "e-2 ms",
                "(algorithm)", "opencv ms", "vips ms", "cv/exact", "vips/ex", "copy ms", "e-2/cpy");
    std::map<std::string, bool> cases;
    for (const auto& [id, row] : rows())
      if (id.rfind("exact/", 0) == 0) cases[id.substr(6)] = true;
    for (const auto& [c, unused] : cases) {
      const auto get = [&](const std::string& lib) {
        const auto it = rows().find(lib + "/" + c);
        return it == rows().end() || it->second.ms <= 0 ? -1.0 : it->second.ms;
      };
      const double exact = get("exact"), tol = get("tolerance"), cv = get("opencv"), vips = get("vips");
      // The copy of the same image in this run where it was timed; else the 256 MiB bandwidth.
      const std::string shape = c.substr(0, c.rfind('/'));
      const auto copied = rows().find("copy/" + shape);
      const double floor = copied != rows().end() && copied->second.ms > 0 ? copied->second.ms : rows()["exact/" + c].bytes / (copy_gbs_ * 1e6);
      const auto ms = [](double v) { return v < 0 ? std::string("-") : std::to_string(v).substr(0, 7); };
      const auto ratio = [](double a, double b) { return a < 0 || b < 0 ? std::string("-") : std::to_string(a / b).substr(0, 5); };
      std::printf("%-24s %9s %-12s %9s %-12s %9s %9s %8s %8s %8s %8s\n", c.c_str(), ms(exact).c_str(),
                  ("(" + labels_["exact/" + c] + ")").c_str(), ms(tol).c_str(), ("(" + labels_["tolerance/" + c] + ")").c_str(),
                  ms(cv).c_str(), ms(vips).c_str(), ratio(cv, exact).c_str(), ratio(vips, exact).c_str(),
                  std::to_string(floor).substr(0, 6).c_str(), ratio(tol, floor).c_str());
    }
    print_volume_peers();
  }

 private:
  // The 256^3 rows at border nearest: fastblur within 1e-3, fastblur's Deriche, ITK; ms and max error.
  void print_volume_peers() {
    bool any = false;
    for (const auto& [id, row] : rows()) any = any || (id.rfind("nearest-", 0) == 0 && row.ms > 0);
    if (!any) return;
    std::printf("\n256^3 R32F, border nearest, max error against float64 fir (ITK: %s)\n",
#ifdef FASTBLUR_BENCH_ITK
                "SmoothingRecursiveGaussianImageFilter"
#else
                "not built - install libinsighttoolkit5-dev and reconfigure"
#endif
    );
    std::printf("%-6s %10s %9s %-10s %10s %9s %10s %9s %9s %9s\n", "sigma", "e-3 ms", "e-3 err", "(algorithm)", "iir ms",
                "iir err", "itk ms", "itk err", "itk/e-3", "itk/iir");
    for (int sigma : {1, 4, 16}) {
      const std::string c = "R32F/256^3/s" + std::to_string(sigma);
      const auto get = [&](const std::string& lib) {
        const auto it = rows().find(lib + "/" + c);
        return it == rows().end() || it->second.ms <= 0 ? Row{-1.0, 0.0, -1.0} : it->second;
      };
      const Row tol = get("nearest-e3"), iir = get("nearest-iir"), itk = get("itk");
      // prec >= 0: fixed with that many decimals; prec < 0: scientific (errors).
      const auto num = [](double v, int prec) {
        if (v < 0) return std::string("-");
        char b[32];
        if (prec < 0)
          std::snprintf(b, sizeof b, "%.2e", v);
        else
          std::snprintf(b, sizeof b, "%.*f", prec, v);
        return std::string(b);
      };
      const auto ratio = [&](double a, double b) { return a < 0 || b < 0 ? std::string("-") : num(a / b, 2); };
      std::printf("%-6d %10s %9s %-10s %10s %9s %10s %9s %9s %9s\n", sigma, num(tol.ms, 2).c_str(), num(tol.max_error, -1).c_str(),
                  ("(" + labels_["nearest-e3/" + c] + ")").c_str(), num(iir.ms, 2).c_str(), num(iir.max_error, -1).c_str(),
                  num(itk.ms, 2).c_str(), num(itk.max_error, -1).c_str(), ratio(itk.ms, tol.ms).c_str(), ratio(itk.ms, iir.ms).c_str());
    }
  }

  double copy_gbs_;
  std::map<std::string, std::string> labels_;
};

}  // namespace

int main(int argc, char** argv) {
  if (VIPS_INIT(argv[0])) {
    std::fprintf(stderr, "cannot start libvips\n");
    return 1;
  }
  const auto add = [](const std::string& id, auto fn, auto... args) {
    benchmark::RegisterBenchmark(id.c_str(), fn, id, args...)->Unit(benchmark::kMillisecond)->UseRealTime();
  };
  for (const Format& f : kFormats)
    for (const Shape& s : kSizes) {
      add("copy/" + std::string(f.name) + "/" + s.name(), bench_copy, f, s);
      for (const Kernel& k : kKernels) {
        const std::string c = std::string(f.name) + "/" + s.name() + "/" + k.name;
        add("exact/" + c, bench_fastblur, f, s, k.sigma, 0.0);
        add("tolerance/" + c, bench_fastblur, f, s, k.sigma, 1e-2);
        if (f.cv_depth >= 0) add("opencv/" + c, bench_opencv, f, s, k.sigma);
        if (f.vips != VIPS_FORMAT_NOTSET) add("vips/" + c, bench_vips, f, s, k.sigma);
      }
    }
  // Seed 004's volume: exact, and within 1e-3 (issue 6 measures it against ITK's recursive filter).
  add("copy/R32F/256^3", bench_copy, kFormats[3], Shape{256, 256, 256});
  for (double sigma : {1.0, 4.0, 16.0}) {
    const std::string c = "R32F/256^3/s" + std::to_string(static_cast<int>(sigma));
    add("exact/" + c, bench_fastblur, kFormats[3], Shape{256, 256, 256}, sigma, 0.0);
    add("tolerance/" + c, bench_fastblur, kFormats[3], Shape{256, 256, 256}, sigma, 1e-3);
    add("nearest-e3/" + c, bench_volume_nearest, sigma, 1e-3, fastblur::Algorithm::automatic);
    add("nearest-iir/" + c, bench_volume_nearest, sigma, 0.0, fastblur::Algorithm::iir);
#ifdef FASTBLUR_BENCH_ITK
    add("itk/" + c, bench_itk, sigma);
#endif
  }
  // Bigger than cache (issue 15, target 5): a 512^3 volume (512 MiB) and an 8192^2 RGBA32F image
  // (1 GiB), so a cliff past the last-level cache shows against the rows above.
  add("copy/R32F/512^3", bench_copy, kFormats[3], Shape{512, 512, 512});
  for (double sigma : {1.0, 4.0, 16.0}) {
    const std::string c = "R32F/512^3/s" + std::to_string(static_cast<int>(sigma));
    add("exact/" + c, bench_fastblur, kFormats[3], Shape{512, 512, 512}, sigma, 0.0);
    add("tolerance/" + c, bench_fastblur, kFormats[3], Shape{512, 512, 512}, sigma, 1e-3);
  }
  add("copy/RGBA32F/8192x8192", bench_copy, kFormats[2], Shape{8192, 8192, 1});
  for (const Kernel& k : {kKernels[1], kKernels[4]}) {
    const std::string c = std::string("RGBA32F/8192x8192/") + k.name;
    add("exact/" + c, bench_fastblur, kFormats[2], Shape{8192, 8192, 1}, k.sigma, 0.0);
    add("tolerance/" + c, bench_fastblur, kFormats[2], Shape{8192, 8192, 1}, k.sigma, 1e-2);
    add("opencv/" + c, bench_opencv, kFormats[2], Shape{8192, 8192, 1}, k.sigma);
  }
  // Every CPU algorithm by name at 1080p, for the per-algorithm comparison.
  for (const auto& info : fastblur::algorithms()) {
    if (info.id == fastblur::Algorithm::automatic || !info.runs_on(fastblur::Backend::cpu, 2)) continue;
    for (const Format& f : {kFormats[0], kFormats[2]})
      for (double sigma : {5.0, 20.0, 50.0}) {
        const std::string id = "algo/" + std::string(info.name) + "/" + f.name + "/1920x1080/s" + std::to_string(static_cast<int>(sigma));
        benchmark::RegisterBenchmark(id.c_str(), [a = info.id, f, sigma](benchmark::State& st) {
          std::vector<std::byte>& src = image_of(f, Shape{1920, 1080, 1});
          std::vector<std::byte> dst(src.size());
          fastblur::BlurSpec spec = fastblur::BlurSpec::isotropic_2d(sigma);
          spec.algorithm = a;
          const auto in = fastblur::View::packed(src.data(), f.type, 1920, 1080, 1, f.channels);
          const auto out = fastblur::View::packed(dst.data(), f.type, 1920, 1080, 1, f.channels);
          fastblur::blur(in, out, spec);
          for (auto _ : st) fastblur::blur(in, out, spec);
        })->Unit(benchmark::kMillisecond)->UseRealTime();
      }
  }
  // The algorithms on the lane driver past the caches: an 8192^2 RGBA32F image (1 GiB) and a 256^3
  // float volume (issue 28, deliverable 1: the passes across rows and planes walking them in place).
  for (fastblur::Algorithm a : {fastblur::Algorithm::box, fastblur::Algorithm::iir, fastblur::Algorithm::kawase,
                                fastblur::Algorithm::sliding_dct}) {
    const std::string name(fastblur::to_string(a));
    for (const auto& [f, shape, sigma, label] :
         {std::tuple{kFormats[2], Shape{8192, 8192, 1}, 5.0, std::string("8192x8192/s5")},
          std::tuple{kFormats[2], Shape{8192, 8192, 1}, 50.0, std::string("8192x8192/s50")},
          std::tuple{kFormats[3], Shape{256, 256, 256}, 4.0, std::string("256^3/s4")}}) {
      const std::string id = "algo/" + name + "/" + f.name + "/" + label;
      benchmark::RegisterBenchmark(id.c_str(), [a, f = f, shape = shape, sigma = sigma](benchmark::State& st) {
        std::vector<std::byte>& src = image_of(f, shape);
        std::vector<std::byte> dst(src.size());
        fastblur::BlurSpec spec = shape.d > 1 ? fastblur::BlurSpec::isotropic_3d(sigma) : fastblur::BlurSpec::isotropic_2d(sigma);
        spec.algorithm = a;
        const auto in = fastblur::View::packed(src.data(), f.type, shape.w, shape.h, shape.d, f.channels);
        const auto out = fastblur::View::packed(dst.data(), f.type, shape.w, shape.h, shape.d, f.channels);
        fastblur::blur(in, out, spec);
        for (auto _ : st) fastblur::blur(in, out, spec);
      })->Unit(benchmark::kMillisecond)->UseRealTime();
    }
  }
  // fir forced on float data at k7 (fused ring) and k35 (x pass, then the y pass in place), float32
  // and float64 (issue 28, deliverable 3: the float y pass's inner loop).
  const Format rgba64f{"RGBA64F", fastblur::ElementType::f64, 4, -1, VIPS_FORMAT_NOTSET};
  for (const Format& f : {kFormats[2], rgba64f})
    for (const Kernel& k : {kKernels[0], kKernels[1]}) {
      const std::string id = "algo/fir/" + std::string(f.name) + "/1920x1080/" + k.name;
      benchmark::RegisterBenchmark(id.c_str(), [f, sigma = k.sigma](benchmark::State& st) {
        std::vector<std::byte>& src = image_of(f, Shape{1920, 1080, 1});
        std::vector<std::byte> dst(src.size());
        fastblur::BlurSpec spec = fastblur::BlurSpec::isotropic_2d(sigma);
        spec.algorithm = fastblur::Algorithm::fir;
        const auto in = fastblur::View::packed(src.data(), f.type, 1920, 1080, 1, f.channels);
        const auto out = fastblur::View::packed(dst.data(), f.type, 1920, 1080, 1, f.channels);
        fastblur::blur(in, out, spec);
        for (auto _ : st) fastblur::blur(in, out, spec);
      })->Unit(benchmark::kMillisecond)->UseRealTime();
    }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  TableReporter reporter(copy_bandwidth_gbs());
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  vips_shutdown();
}
