// fastblur fir against OpenCV's cv::GaussianBlur on the seed grid of DESIGN.md: kernel sizes 7,
// 35, 127 (sigma = (size-1)/6) and sigma 20 and 50, at 720p to 4K, RGBA8 / RGBA16F / RGBA32F /
// R32F, both libraries on the same threads. Prints Google Benchmark's table, then a summary with
// ms, MPix/s, GB/s (one read + one write of the image) and the ratio OpenCV time / fastblur time.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdio>
#include <map>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <random>
#include <string>
#include <vector>

#include "fastblur/fastblur.hpp"

namespace {

struct Format {
  const char* name;
  fastblur::ElementType type;
  int channels;
  int cv_type;  // -1: OpenCV's GaussianBlur does not take it
};
const Format kFormats[] = {{"RGBA8", fastblur::ElementType::u8, 4, CV_8UC4},
                           {"RGBA16F", fastblur::ElementType::f16, 4, -1},
                           {"RGBA32F", fastblur::ElementType::f32, 4, CV_32FC4},
                           {"R32F", fastblur::ElementType::f32, 1, CV_32FC1}};
struct Size {
  int w, h;
};
const Size kSizes[] = {{1280, 720}, {1920, 1080}, {2560, 1600}, {3840, 2160}};
struct Kernel {
  std::string name;
  double sigma;
};
const Kernel kKernels[] = {{"k7", 1.0}, {"k35", 34.0 / 6}, {"k127", 21.0}, {"s20", 20.0}, {"s50", 50.0}};

int threads() { return omp_get_max_threads(); }

// The same image for both libraries.
cv::Mat make_image(const Format& f, Size s) {
  cv::Mat m(s.h, s.w, CV_MAKETYPE(f.type == fastblur::ElementType::u8 ? CV_8U : f.type == fastblur::ElementType::f16 ? CV_16U : CV_32F, f.channels));
  std::mt19937 rng(42);
  if (f.type == fastblur::ElementType::u8) cv::randu(m, 0, 256);
  else if (f.type == fastblur::ElementType::f16) {
    cv::Mat tmp(s.h, s.w, CV_32FC(f.channels));
    cv::randu(tmp, 0.0, 1.0);
    tmp.convertTo(m, CV_16F);
  } else cv::randu(m, 0.0, 1.0);
  return m;
}

fastblur::View view_of(cv::Mat& m, const Format& f) {
  fastblur::View v = fastblur::View::packed(m.data, f.type, m.cols, m.rows, 1, f.channels);
  v.stride[1] = static_cast<std::ptrdiff_t>(m.step[0]);
  return v;
}

void set_counters(benchmark::State& st, const Format& f, Size s) {
  const double bytes = 2.0 * s.w * s.h * f.channels * fastblur::element_size(f.type);
  st.counters["MPix/s"] = benchmark::Counter(static_cast<double>(s.w) * s.h * st.iterations() / 1e6,
                                             benchmark::Counter::kIsRate);
  st.counters["GB/s"] = benchmark::Counter(bytes * st.iterations() / 1e9, benchmark::Counter::kIsRate);
}

void bench_fastblur(benchmark::State& st, Format f, Size s, Kernel k) {
  cv::Mat src = make_image(f, s), dst = src.clone();
  fastblur::BlurSpec spec = fastblur::BlurSpec::isotropic_2d(k.sigma);
  spec.algorithm = fastblur::Algorithm::fir;
  fastblur::blur(view_of(src, f), view_of(dst, f), spec);  // warm-up: first-touch page faults
  for (auto _ : st) fastblur::blur(view_of(src, f), view_of(dst, f), spec);
  set_counters(st, f, s);
}

// Every other algorithm of the registry on the same image, for the table against fir.
void bench_algorithm(benchmark::State& st, Format f, Size s, double sigma, fastblur::Algorithm a) {
  cv::Mat src = make_image(f, s), dst = src.clone();
  fastblur::BlurSpec spec = fastblur::BlurSpec::isotropic_2d(sigma);
  spec.algorithm = a;
  fastblur::blur(view_of(src, f), view_of(dst, f), spec);  // warm-up
  for (auto _ : st) fastblur::blur(view_of(src, f), view_of(dst, f), spec);
  set_counters(st, f, s);
}

void bench_opencv(benchmark::State& st, Format f, Size s, Kernel k) {
  cv::setNumThreads(threads());
  cv::Mat src = make_image(f, s), dst;
  // The same truncation as fastblur and scipy: radius = int(4 sigma + 0.5).
  const int r = fastblur::kernel::radius_from_truncate(k.sigma, 4.0);
  cv::GaussianBlur(src, dst, cv::Size(2 * r + 1, 2 * r + 1), k.sigma, k.sigma, cv::BORDER_REFLECT);  // warm-up
  for (auto _ : st) cv::GaussianBlur(src, dst, cv::Size(2 * r + 1, 2 * r + 1), k.sigma, k.sigma, cv::BORDER_REFLECT);
  set_counters(st, f, s);
}

// Collects real times so a ratio table can follow Google Benchmark's own output.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Iteration || r.aggregate_name == "median")
        ms_[r.run_name.function_name] = r.GetAdjustedRealTime() / 1e6 * (r.time_unit == benchmark::kMillisecond ? 1e6 : r.time_unit == benchmark::kMicrosecond ? 1e3 : 1.0);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    bool header = false;
    for (const auto& [name, ms] : ms_) {  // algo/<name>/<format>/<size>/s<sigma>
      if (name.rfind("algo/", 0) != 0) continue;
      if (!header) std::printf("\n%-40s %10s %10s %10s\n", "algorithm (2D, reflect)", "ms", "fir ms", "fir/alg"), header = true;
      const std::string rest = name.substr(5), case_id = rest.substr(rest.find('/') + 1);
      const auto fir = ms_.find("algo/fir/" + case_id);
      std::printf("%-40s %10.2f %10s %10s\n", rest.c_str(), ms,
                  fir == ms_.end() ? "-" : std::to_string(fir->second).substr(0, 7).c_str(),
                  fir == ms_.end() ? "-" : std::to_string(fir->second / ms).substr(0, 5).c_str());
    }
    std::printf("\n%-26s %10s %10s %9s %9s %12s\n", "case (2D, reflect)", "fir ms", "opencv ms", "MPix/s", "GB/s",
                "opencv/fir");
    for (const auto& [name, ms] : ms_) {
      if (name.rfind("fir/", 0) != 0) continue;
      const std::string rest = name.substr(4);
      const auto cv = ms_.find("opencv/" + rest);
      const auto parts = rest.substr(0, rest.find('/'));
      double px = 0, bytes_per_px = 0;
      for (const Format& f : kFormats)
        if (parts == f.name) bytes_per_px = 2.0 * f.channels * fastblur::element_size(f.type);
      for (const Size& s : kSizes)
        if (rest.find("/" + std::to_string(s.w) + "x" + std::to_string(s.h) + "/") != std::string::npos) px = double(s.w) * s.h;
      std::printf("%-26s %10.2f %10s %9.1f %9.2f %12s\n", rest.c_str(), ms,
                  cv == ms_.end() ? "-" : std::to_string(cv->second).substr(0, 8).c_str(), px / ms / 1e3,
                  px * bytes_per_px / ms / 1e6,
                  cv == ms_.end() ? "-" : std::to_string(cv->second / ms).substr(0, 5).c_str());
    }
  }

 private:
  std::map<std::string, double> ms_;
};

}  // namespace

int main(int argc, char** argv) {
  for (const Format& f : kFormats)
    for (const Size& s : kSizes)
      for (const Kernel& k : kKernels) {
        const std::string id = std::string(f.name) + "/" + std::to_string(s.w) + "x" + std::to_string(s.h) + "/" + k.name;
        benchmark::RegisterBenchmark(("fir/" + id).c_str(), bench_fastblur, f, s, k)
            ->Unit(benchmark::kMillisecond)->UseRealTime();
        if (f.cv_type >= 0)
          benchmark::RegisterBenchmark(("opencv/" + id).c_str(), bench_opencv, f, s, k)
              ->Unit(benchmark::kMillisecond)->UseRealTime();
      }
  for (const auto& info : fastblur::algorithms()) {
    if (info.id == fastblur::Algorithm::automatic || info.gpu_only) continue;  // GPU techniques: gpu_bench
    for (const Format& f : {kFormats[0], kFormats[2]})
      for (double sigma : {5.0, 20.0, 50.0}) {
        const std::string id = std::string(info.name) + "/" + f.name + "/1920x1080/s" + std::to_string(static_cast<int>(sigma));
        benchmark::RegisterBenchmark(("algo/" + id).c_str(), bench_algorithm, f, Size{1920, 1080}, sigma, info.id)
            ->Unit(benchmark::kMillisecond)->UseRealTime();
      }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::printf("threads: %d (fastblur and OpenCV)\n", threads());
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
}
