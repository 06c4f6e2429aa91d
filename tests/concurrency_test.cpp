// The library is safe to call from many threads at once: 8 threads run a mix of blurs (every CPU
// algorithm, the planner, every element type, 2D and 3D, in place, OpenMP threads inside each) on
// their own data and on one shared read-only input, and every result must equal, bit for bit, the
// same blur run alone. Run under ThreadSanitizer by the tsan preset.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "fastblur/fastblur.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

struct Job {
  std::string name;
  const test::Buffer* src;  // shared inputs are read-only
  ElementType dst_type;
  BlurSpec spec;
  bool in_place = false;    // blur a private copy of src onto itself
};

// Runs the job on fresh memory and returns the result's bytes (packed).
std::vector<std::byte> run(const Job& job) {
  const View& s = job.src->view;
  if (job.in_place) {
    test::Buffer copy = *job.src;
    copy.view.data = copy.bytes.data() + (static_cast<const std::byte*>(s.data) - job.src->bytes.data());
    blur(copy.view, copy.view, job.spec);
    return copy.bytes;
  }
  test::Buffer out = test::make_buffer(job.dst_type, s.width(), s.height(), s.depth(), s.channels);
  blur(s, out.view, job.spec);
  return out.bytes;
}

TEST(Concurrency, EightThreadsOfMixedBlursMatchSerialRuns) {
  auto rng = test::rng_for_test();
  // Inputs: an RGBA8 image (flipped rows), a padded float image, a half volume, a double image.
  std::vector<test::Buffer> inputs;
  inputs.push_back(test::make_buffer(ElementType::u8, 97, 61, 1, 4, 0, 3, true));
  inputs.push_back(test::make_buffer(ElementType::f32, 80, 72, 1, 3, 4, 0));
  inputs.push_back(test::make_buffer(ElementType::f16, 23, 19, 17, 2));
  inputs.push_back(test::make_buffer(ElementType::f64, 64, 48, 1, 1));
  inputs.push_back(test::make_buffer(ElementType::u16, 120, 90, 1, 1));
  for (auto& b : inputs) test::fill_random(b.view, rng);
  const std::vector<std::vector<std::byte>> inputs_before = [&] {
    std::vector<std::vector<std::byte>> v;
    for (const auto& b : inputs) v.push_back(b.bytes);
    return v;
  }();

  std::vector<Job> jobs;
  int k = 0;
  for (const AlgorithmInfo& info : algorithms()) {
    for (std::size_t i = 0; i < inputs.size(); ++i, ++k) {
      const test::Buffer& in = inputs[i];
      if (info.planar && in.view.depth() > 1) continue;
      Job job;
      job.name = std::string(info.name) + " on input " + std::to_string(i);
      job.src = &in;
      job.dst_type = test::all_types()[static_cast<std::size_t>(k) % 5];
      job.spec.algorithm = info.id;
      job.spec.sigma = {1.5 + (k % 4), 2.0 + (k % 3), in.view.depth() > 1 ? 1.3 : 0.0};
      job.spec.border = {test::all_borders()[k % 5], test::all_borders()[(k + 2) % 5], Border::nearest};
      job.spec.cval = 0.25;
      job.spec.threads = k % 3;  // 0: every core, 1: the calling thread, 2
      if (info.id == Algorithm::automatic) job.spec.tolerance = 0.01 * (k % 4);
      if (info.id == Algorithm::fir && k % 2) job.spec.order = {1, 0, 0};
      job.in_place = k % 4 == 3;
      jobs.push_back(job);
    }
  }
  // Keep only what this build runs on the CPU (GPU techniques throw Unsupported); serial results.
  std::vector<Job> runnable;
  std::vector<std::vector<std::byte>> expected;
  for (const Job& job : jobs) {
    try {
      expected.push_back(run(job));
      runnable.push_back(job);
    } catch (const Unsupported&) {
    }
  }
  ASSERT_GE(runnable.size(), 30u);

  // 8 threads, each running every job in its own order, twice.
  constexpr int kThreads = 8;
  std::atomic<int> mismatches{0}, failures{0};
  std::vector<std::string> reports(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 2; ++round)
        for (std::size_t n = 0; n < runnable.size(); ++n) {
          const std::size_t j = (n * 7 + static_cast<std::size_t>(t) * 5 + static_cast<std::size_t>(round)) % runnable.size();
          try {
            if (run(runnable[j]) != expected[j]) {
              ++mismatches;
              reports[static_cast<std::size_t>(t)] += runnable[j].name + " differs; ";
            }
          } catch (const std::exception& e) {
            ++failures;
            reports[static_cast<std::size_t>(t)] += runnable[j].name + " threw " + e.what() + "; ";
          }
        }
    });
  for (auto& th : threads) th.join();
  std::string all;
  for (const auto& r : reports) all += r;
  EXPECT_EQ(mismatches.load(), 0) << all;
  EXPECT_EQ(failures.load(), 0) << all;
  for (std::size_t i = 0; i < inputs.size(); ++i) EXPECT_EQ(inputs[i].bytes, inputs_before[i]) << "shared input " << i << " was written";
}

TEST(Concurrency, ThreadCountsBeyondTheProcessorsRunAsManyAsThereAre) {
  // OpenMP cannot start 100000 threads (it crashed the CLI's -j 100000): such requests run on every
  // processor and give the same result as one thread.
  auto rng = test::rng_for_test();
  test::Buffer src = test::make_buffer(ElementType::f32, 700, 500, 1, 1);
  test::fill_random(src.view, rng);
  test::Buffer one = test::make_buffer(ElementType::f32, 700, 500, 1, 1);
  test::Buffer many = test::make_buffer(ElementType::f32, 700, 500, 1, 1);
  for (Algorithm a : {Algorithm::fir, Algorithm::box, Algorithm::iir}) {
    BlurSpec spec = BlurSpec::isotropic_2d(3.0);
    spec.algorithm = a;
    spec.threads = 1;
    blur(src.view, one.view, spec);
    spec.threads = 100000;
    blur(src.view, many.view, spec);
    EXPECT_EQ(one.bytes, many.bytes) << to_string(a);
  }
}

}  // namespace
}  // namespace fastblur
