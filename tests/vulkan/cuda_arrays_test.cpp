// fastblur/cuda.hpp (src/cuda_arrays.cpp) from C++, under the validation layer: CUDA views blurred
// through the Vulkan buffer CUDA maps give the bits of the host path on the same device, with
// pitched rows, planes whose pitch is no multiple of the rows' (a copy per plane), a destination of
// another type, and in place, with either handoff (a shared timeline semaphore, or host waits);
// calls queued on streams that run behind the host, back to back and from several threads, keep
// their order; what the copies cannot take is refused. "CUDA" is the stand-in driver of
// tests/python/fake_cuda_driver.cpp on a CPU device (lavapipe, with the stand-in semaphore-export
// layer), NVIDIA's driver on a GPU (cuda_memory.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "cuda_arrays_internal.hpp"
#include "fastblur/cuda.hpp"
#include "fastblur/error.hpp"
#include "fastblur/serialize.hpp"
#include "vulkan/context.hpp"
#include "vulkan/cuda_memory.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

// A buffer whose planes lie `plane_pad` bytes apart beyond its rows (0: planes follow rows).
test::Buffer padded(ElementType t, std::int64_t w, std::int64_t h, std::int64_t d, int c, int pad_row, int plane_pad) {
  test::Buffer b = test::make_buffer(t, w, h, d, c, 0, pad_row);
  const std::ptrdiff_t plane = b.view.stride[1] * h + plane_pad;
  b.bytes.assign(static_cast<std::size_t>(plane * d), std::byte{0});
  b.view.data = b.bytes.data();
  b.view.stride[2] = plane;
  return b;
}

bool same_values(const View& a, const View& b) {
  const std::size_t es = element_size(a.type);
  for (std::int64_t z = 0; z < a.depth(); ++z)
    for (std::int64_t y = 0; y < a.height(); ++y)
      if (std::memcmp(a.pixel(0, y, z), b.pixel(0, y, z), static_cast<std::size_t>(a.width() * a.channels) * es) != 0)
        return false;
  return true;
}

// A schedule as JSON without the two fields only a CUDA array's plan sets (how the caller's buffers
// are read, how the stream is ordered): the rest is the host path's plan for the same shape.
std::string common_schedule(RunRecord r) {
  r.schedule.gpu_io = GpuIo::converted;
  r.schedule.cuda_handoff = CudaHandoff::none;
  return run_json(r);
}

// The handoff FASTBLUR_CUDA_HOST_WAITS asks for, for the rest of a test (the device set up afresh).
class HostWaits {
 public:
  explicit HostWaits(bool on) {
    if (on) setenv("FASTBLUR_CUDA_HOST_WAITS", "1", 1);
    else unsetenv("FASTBLUR_CUDA_HOST_WAITS");
    cuda::release_devices();
  }
  ~HostWaits() {
    unsetenv("FASTBLUR_CUDA_HOST_WAITS");
    cuda::release_devices();
  }
};

// The stand-in's streams run behind the host (each operation `us` microseconds late) for a scope.
class LateStreams {
 public:
  LateStreams(test::CudaMemory& cuda, long us) : cuda_(cuda) {
    cuda_.synchronize();
    if (cuda_.stand_in() && us >= 0) setenv("FASTBLUR_FAKE_CUDA_ASYNC_US", std::to_string(us).c_str(), 1);
  }
  ~LateStreams() {
    cuda_.synchronize();
    unsetenv("FASTBLUR_FAKE_CUDA_ASYNC_US");
  }

 private:
  test::CudaMemory& cuda_;
};

void blurs_give_the_host_paths_bits(const Device& device, test::CudaMemory& cuda, CudaHandoff expected) {
  auto rng = test::rng_for_test();
  struct Case {
    ElementType in, out;
    std::int64_t w, h, d;
    int c, pad_row, plane_pad;
    BlurSpec spec;
  };
  BlurSpec volume = BlurSpec::isotropic_3d(1.5);
  BlurSpec wide = BlurSpec::isotropic_2d(4.0);
  wide.algorithm = Algorithm::box;
  wide.tolerance = 0.05;
  const Case cases[] = {
      {ElementType::f32, ElementType::f32, 37, 23, 5, 3, 28, 64, volume},  // a copy per plane
      {ElementType::f32, ElementType::f32, 37, 23, 5, 1, 0, 0, volume},    // packed: one copy
      {ElementType::u8, ElementType::f32, 61, 44, 1, 4, 12, 0, wide},      // pitched rows, another type out
      {ElementType::f16, ElementType::f16, 40, 31, 1, 2, 8, 0, BlurSpec::isotropic_2d(2.0)},
  };
  EXPECT_EQ(cuda::handoff(0), expected);
  for (const Case& k : cases) {
    SCOPED_TRACE(std::string(to_string(k.in)) + " -> " + std::string(to_string(k.out)) + " " + std::to_string(k.w) + "x" +
                 std::to_string(k.h) + "x" + std::to_string(k.d) + "x" + std::to_string(k.c));
    test::Buffer src = padded(k.in, k.w, k.h, k.d, k.c, k.pad_row, k.plane_pad);
    test::Buffer dst = padded(k.out, k.w, k.h, k.d, k.c, k.pad_row + 4, k.plane_pad ? k.plane_pad + 32 : 0);
    test::Buffer want = test::make_buffer(k.out, k.w, k.h, k.d, k.c);
    test::fill_random(src.view, rng);
    blur(src.view, want.view, k.spec, device);
    const std::string host_ran = common_schedule(*last_run());
    const cuda::DeviceView s = cuda.upload(src), d = cuda.upload(dst);
    cuda::blur(s, d, k.spec, 0, 0);
    cuda.download(d, dst);
    EXPECT_TRUE(same_values(dst.view, want.view));
    // The plan printed is the plan run: the host path's for the same shape, read and written in place
    // where both sides are float32, ordered as the device allows.
    const Plan planned = cuda::plan(s, k.out, k.spec, 0);
    EXPECT_EQ(common_schedule(*last_run()), host_ran);
    EXPECT_EQ(run_json(*last_run()), run_json(RunRecord{planned.algorithm, planned.schedule, planned.spec.rounding, k.in, k.out}));
    EXPECT_EQ(planned.schedule.cuda_handoff, expected);
    EXPECT_EQ(planned.schedule.gpu_io, k.in == ElementType::f32 && k.out == ElementType::f32 ? GpuIo::direct : GpuIo::converted);
    EXPECT_NE(describe(planned).find(expected == CudaHandoff::semaphores ? "timeline semaphore" : "host waits"), std::string::npos)
        << describe(planned);
    EXPECT_EQ(cuda::last_timing().handoff, expected);
    if (k.in == k.out) {  // in place
      cuda::blur(s, s, k.spec, 0, 0);
      cuda.download(s, src);
      EXPECT_TRUE(same_values(src.view, want.view));
    }
  }
  // Once each buffer of the ring fits, calls import nothing.
  test::Buffer a = test::make_buffer(ElementType::f32, 37, 23, 5, 3);
  const cuda::DeviceView v = cuda.upload(a);
  for (std::size_t i = 0; i < 3; ++i) cuda::blur(v, v, volume, 0, 0);
  const std::uint64_t imports = cuda::imports();
  for (int i = 0; i < 10; ++i) cuda::blur(v, v, volume, 0, 0);
  cuda.synchronize();
  EXPECT_EQ(cuda::imports(), imports) << "blurs that fit the pooled buffers imported anew";
}

TEST_F(VulkanTest, CudaViewsGiveTheBitsOfTheHostPath) {
  test::CudaMemory cuda(device_);
  // lavapipe exports timeline semaphores through the stand-in layer, NVIDIA's driver itself.
  std::string why;
  const CudaHandoff handoff = cuda::handoff(0, &why);
  EXPECT_EQ(handoff, CudaHandoff::semaphores) << why;
  blurs_give_the_host_paths_bits(device_, cuda, handoff);
}

TEST_F(VulkanTest, CudaViewsWithHostWaitsGiveTheSameBits) {
  test::CudaMemory cuda(device_);
  const HostWaits host_waits(true);
  std::string why;
  EXPECT_EQ(cuda::handoff(0, &why), CudaHandoff::host_waits);
  EXPECT_NE(why.find("FASTBLUR_CUDA_HOST_WAITS"), std::string::npos) << why;
  blurs_give_the_host_paths_bits(device_, cuda, CudaHandoff::host_waits);
}

// Inputs of random data and their host-path results on the device.
struct Calls {
  std::vector<test::Buffer> src, dst, want;
  std::vector<cuda::DeviceView> s, d;

  Calls(const Device& device, test::CudaMemory& cuda, int n, const BlurSpec& spec, std::mt19937_64& rng, std::int64_t w = 48,
        std::int64_t h = 40) {
    for (int i = 0; i < n; ++i) {
      const std::int64_t wi = w + 3 * (i % 4), hi = h + i % 3;  // sizes change: buffers are replaced too
      src.push_back(test::make_buffer(ElementType::f32, wi, hi, 1, 4));
      dst.push_back(test::make_buffer(ElementType::f32, wi, hi, 1, 4));
      want.push_back(test::make_buffer(ElementType::f32, wi, hi, 1, 4));
      test::fill_random(src.back().view, rng);
      blur(src.back().view, want.back().view, spec, device);
      s.push_back(cuda.upload(src.back()));
      d.push_back(cuda.upload(dst.back()));
    }
  }
  void check(test::CudaMemory& cuda) {
    for (std::size_t i = 0; i < dst.size(); ++i) {
      cuda.download(d[i], dst[i]);
      EXPECT_TRUE(same_values(dst[i].view, want[i].view)) << "call " << i;
    }
  }
};

// Streams that run well behind the host: a blur that read its buffer before the copy in, or a copy
// out before the blur, would give another call's data. Back-to-back calls of different data
// through the ring's buffers, alternating between two streams, each result checked.
TEST_F(VulkanTest, CudaCallsQueuedOnLateStreamsKeepTheirOrder) {
  test::CudaMemory cuda(device_);
  for (const bool host_waits : {false, true}) {
    SCOPED_TRACE(host_waits ? "host waits" : "semaphores");
    const HostWaits handoff(host_waits);
    auto rng = test::rng_for_test();
    const BlurSpec spec = BlurSpec::isotropic_2d(2.0);
    const std::uintptr_t streams[2] = {cuda.stream(), cuda.stream()};
    Calls calls(device_, cuda, 9, spec, rng);
    {
      const LateStreams late(cuda, 3000);
      for (std::size_t i = 0; i < calls.s.size(); ++i) cuda::blur(calls.s[i], calls.d[i], spec, 0, streams[i % 2]);
    }
    calls.check(cuda);
  }
}

// With semaphores a call queues its work and returns before the stream has even made the copy in
// (here 100 ms an operation); with host waits it returns after the copy in and the blur.
TEST_F(VulkanTest, CudaCallsWithSemaphoresReturnBeforeTheStreamRuns) {
  test::CudaMemory cuda(device_);
  for (const bool host_waits : {false, true}) {
    SCOPED_TRACE(host_waits ? "host waits" : "semaphores");
    const HostWaits handoff(host_waits);
    auto rng = test::rng_for_test();
    const BlurSpec spec = BlurSpec::isotropic_2d(3.0);
    Calls calls(device_, cuda, 2, spec, rng);
    cuda::blur(calls.s[0], calls.d[0], spec, 0, 0);  // the device set up and its pipelines built
    cuda.synchronize();
    double ms = 0.0;
    {
      const LateStreams late(cuda, 100000);
      const auto start = std::chrono::steady_clock::now();
      cuda::blur(calls.s[1], calls.d[1], spec, 0, 0);
      ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
    calls.check(cuda);
    if (!cuda.stand_in()) continue;  // a real stream runs as fast as it can: nothing to time
    if (host_waits) EXPECT_GE(ms, 200.0) << "the host waited for the copy in (two operations)";
    else EXPECT_LT(ms, 100.0) << "the call waited for its stream";
  }
}

// Calls from several threads, each on its own stream, share the ring: every result is its own. The
// streams run late where the validation layer is off (the sanitizer presets): under load, with
// several late streams signalling timelines from the host at once, the layer's bookkeeping timed
// out waiting for a value (UNASSIGNED-VkSemaphore-state-timeout, "most likely a validation bug";
// once in 20 runs) - CUDA's own signals never pass through it.
TEST_F(VulkanTest, CudaCallsFromSeveralThreadsShareTheRing) {
  test::CudaMemory cuda(device_);
  auto rng = test::rng_for_test();
  const BlurSpec spec = BlurSpec::isotropic_2d(1.5);
  constexpr int kThreads = 3, kEach = 5;
  std::vector<Calls> calls;
  std::vector<std::uintptr_t> streams;
  for (int t = 0; t < kThreads; ++t) calls.emplace_back(device_, cuda, kEach, spec, rng, 30 + 8 * t, 20 + 4 * t), streams.push_back(cuda.stream());
  {
    const LateStreams late(cuda, vk::validation_requested() ? -1 : 1000);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        Calls& c = calls[static_cast<std::size_t>(t)];
        for (std::size_t i = 0; i < c.s.size(); ++i) cuda::blur(c.s[i], c.d[i], spec, 0, streams[static_cast<std::size_t>(t)]);
      });
    for (std::thread& th : threads) th.join();
  }
  for (Calls& c : calls) c.check(cuda);
}

// A batch with a sigma per sample (cuda::blur_slices): one copy in, one submission, one copy out,
// each slice what blurring it alone on the device gives (here the host path's bits). A stack of fir
// slices runs one pass per axis over the whole stack (fir_line_slices, fir_across_slices); slices
// that plan other algorithms run their own passes in turn.
TEST_F(VulkanTest, CudaSlicesEachGetTheBitsOfBlurringItAlone) {
  test::CudaMemory cuda(device_);
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> u(0.1, 2.5);
  struct Case {
    ElementType type;
    std::int64_t w, h, n;
    int c;
    bool mixed;  // some slices within a tolerance (not fir): no stacked passes
  };
  const Case cases[] = {
      {ElementType::f32, 48, 40, 6, 4, false},  // samples with interleaved channels: read where they lie
      {ElementType::f32, 40, 36, 9, 1, false},  // N C planes of one channel each
      {ElementType::u8, 37, 29, 5, 3, false},   // converted on the device
      {ElementType::f32, 13, 11, 5, 1, false},  // slices off the storage-buffer alignment: converted
      {ElementType::f32, 32, 30, 5, 2, true},
  };
  for (const bool host_waits : {false, true}) {
    const HostWaits handoff(host_waits);
    for (const Case& k : cases) {
      SCOPED_TRACE(std::string(host_waits ? "host waits " : "semaphores ") + std::string(to_string(k.type)) + " " +
                   std::to_string(k.w) + "x" + std::to_string(k.h) + "x" + std::to_string(k.n) + "x" + std::to_string(k.c) +
                   (k.mixed ? " mixed" : ""));
      test::Buffer src = test::make_buffer(k.type, k.w, k.h, k.n, k.c);
      test::Buffer dst = test::make_buffer(k.type, k.w, k.h, k.n, k.c);
      test::Buffer want = test::make_buffer(k.type, k.w, k.h, k.n, k.c);
      test::fill_random(src.view, rng);
      std::vector<BlurSpec> specs;
      for (std::int64_t i = 0; i < k.n; ++i) {
        BlurSpec s = BlurSpec::isotropic_2d(u(rng));
        s.with_border(i % 2 ? Border::mirror : Border::mirror);
        if (k.mixed && i % 2) s.algorithm = Algorithm::box, s.tolerance = 0.05;
        specs.push_back(s);
      }
      for (std::int64_t i = 0; i < k.n; ++i) {
        View a = src.view, b = want.view;
        a.data = src.view.pixel(0, 0, i), b.data = want.view.pixel(0, 0, i);
        a.extent[2] = b.extent[2] = 1;
        blur(a, b, specs[static_cast<std::size_t>(i)], device_);
      }
      const cuda::DeviceView s = cuda.upload(src), d = cuda.upload(dst);
      const SlicedPlan plan = cuda::plan_slices(s, d, specs, 0);
      EXPECT_EQ(plan.stacked, !k.mixed);
      EXPECT_EQ(plan.cuda_handoff, host_waits ? CudaHandoff::host_waits : CudaHandoff::semaphores);
      EXPECT_EQ(plan.gpu_io, k.type == ElementType::f32 && k.w * k.h * k.c % 4 == 0 ? GpuIo::direct : GpuIo::converted);
      cuda::blur_slices(s, d, specs, 0, 0);
      cuda.download(d, dst);
      EXPECT_TRUE(same_values(dst.view, want.view));
      if (plan.stacked) EXPECT_EQ(last_run()->schedule.gpu[0].shader, "fir_line_slices_c" + std::to_string(k.c));
      cuda::blur_slices(s, s, specs, 0, 0);  // in place
      cuda.download(s, src);
      EXPECT_TRUE(same_values(src.view, want.view));
    }
  }
  // The count and the slices' axes are checked before anything runs.
  test::Buffer a = test::make_buffer(ElementType::f32, 8, 8, 3, 1);
  const cuda::DeviceView v = cuda.upload(a);
  EXPECT_THROW(cuda::blur_slices(v, v, std::vector<BlurSpec>(2, BlurSpec::isotropic_2d(1.0)), 0, 0), InvalidArgument);
  EXPECT_THROW(cuda::blur_slices(v, v, std::vector<BlurSpec>(3, BlurSpec::isotropic_3d(1.0)), 0, 0), InvalidArgument);
}

// Data with holes in CUDA memory (NaN omitted, preserve_nan): the device's normalized convolution
// (each channel packed with its weight, blurred, divided back) equals the host path's on the same
// device to float rounding - the same NaN, empty where no valid sample lies under the kernel - for
// channels whose holes disagree, float16, volumes, every border that extends data (and a constant
// one with cval NaN), in place; without holes, the plain blur; and what it does not take is refused
// in one line with nothing written.
// A CUDA call's normalized convolution against the host path's: NaN in the same places (counted in
// `empty`), the values of float32 work on both sides - integers within one step of their rounding,
// floats relative to their size (float16 its precision).
void expect_the_host_paths_holes(const View& got, const View& want, int& empty) {
  const double tol = got.type == ElementType::f16 ? 2e-3 : 2e-6;
  for (std::int64_t z = 0; z < got.depth(); ++z)
    for (std::int64_t y = 0; y < got.height(); ++y)
      for (std::int64_t x = 0; x < got.width(); ++x)
        for (int c = 0; c < got.channels; ++c) {
          const double g = test::get(got, x, y, z, c), w = test::get(want, x, y, z, c);
          const std::string at = std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + " c" +
                                 std::to_string(c) + ": " + std::to_string(g) + " vs " + std::to_string(w);
          ASSERT_EQ(std::isnan(g), std::isnan(w)) << at;
          if (std::isnan(w)) ++empty;
          else ASSERT_LE(std::fabs(g - w), is_integer(got.type) ? 1.0 : tol * std::max(1.0, std::fabs(w))) << at;
        }
}

TEST_F(VulkanTest, CudaViewsWithHolesGiveTheHostPathsNormalizedConvolution) {
  test::CudaMemory cuda(device_);
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  struct Case {
    ElementType type;
    std::int64_t w, h, d;
    int c;
    Border border;
    bool preserve;
  };
  const Case cases[] = {{ElementType::f32, 37, 23, 1, 1, Border::reflect, false},
                        {ElementType::f32, 41, 19, 1, 3, Border::mirror, true},   // each channel its own holes
                        {ElementType::f16, 30, 26, 1, 2, Border::nearest, false},
                        {ElementType::f32, 17, 13, 6, 1, Border::wrap, true},     // a volume
                        {ElementType::f32, 33, 29, 1, 4, Border::constant, false}};  // cval NaN: outside missing
  for (const Case& k : cases) {
    SCOPED_TRACE(std::string(to_string(k.type)) + " " + std::to_string(k.w) + "x" + std::to_string(k.h) + "x" +
                 std::to_string(k.d) + "x" + std::to_string(k.c) + " " + std::string(to_string(k.border)));
    BlurSpec spec = k.d > 1 ? BlurSpec::isotropic_3d(1.3) : BlurSpec::isotropic_2d(2.2);
    spec.with_border(k.border);
    spec.cval = std::nan("");
    MissingData m;
    m.omit_nan = true;
    m.preserve_nan = k.preserve;
    test::Buffer src = test::make_buffer(k.type, k.w, k.h, k.d, k.c), got = test::make_buffer(k.type, k.w, k.h, k.d, k.c);
    test::Buffer want = test::make_buffer(k.type, k.w, k.h, k.d, k.c);
    test::fill_random(src.view, rng);
    for (std::int64_t z = 0; z < k.d; ++z)
      for (std::int64_t y = 0; y < k.h; ++y)
        for (std::int64_t x = 0; x < k.w; ++x)
          for (int c = 0; c < k.c; ++c)  // scattered holes, and a block missing whole in channel 0
            if (u(rng) < 0.15 || (c == 0 && x >= 4 && x < 12 && y >= 3 && y < 11))
              test::set(src.view, x, y, z, c, std::nan(""));
    blur(src.view, want.view, spec, m, device_);
    const cuda::DeviceView s = cuda.upload(src), d = cuda.upload(got);
    cuda::blur(s, d, spec, m, 0, 0);
    cuda.download(d, got);
    int empty = 0;
    ASSERT_NO_FATAL_FAILURE(expect_the_host_paths_holes(got.view, want.view, empty));
    if (k.preserve) EXPECT_GT(empty, 0);
    // The plan printed is the pairs' blur, and the plan run.
    const Plan planned = cuda::plan(s, d, spec, m, 0);
    EXPECT_EQ(planned.channels, 2);
    EXPECT_EQ(last_run()->algorithm, planned.algorithm);
    if (k.type == ElementType::f32) {  // in place
      cuda::blur(s, s, spec, m, 0, 0);
      cuda.download(s, src);
      int in_place_empty = 0;
      ASSERT_NO_FATAL_FAILURE(expect_the_host_paths_holes(src.view, want.view, in_place_empty));
    }
  }
  // No holes: the plain blur's values.
  test::Buffer full = test::make_buffer(ElementType::f32, 29, 21, 1, 2), plain = test::make_buffer(ElementType::f32, 29, 21, 1, 2);
  test::Buffer omitted = test::make_buffer(ElementType::f32, 29, 21, 1, 2);
  test::fill_random(full.view, rng);
  const BlurSpec spec = BlurSpec::isotropic_2d(1.7);
  MissingData omit;
  omit.omit_nan = true;
  blur(full.view, plain.view, spec, device_);
  const cuda::DeviceView f = cuda.upload(full), o = cuda.upload(omitted);
  cuda::blur(f, o, spec, omit, 0, 0);
  cuda.download(o, omitted);
  for (std::int64_t y = 0; y < 21; ++y)
    for (std::int64_t x = 0; x < 29; ++x)
      ASSERT_NEAR(test::get(omitted.view, x, y, 0, 1), test::get(plain.view, x, y, 0, 1), 2e-6 * std::max(1.0, std::fabs(test::get(plain.view, x, y, 0, 1))));
  // Refused in one line, nothing written.
  test::Buffer bytes = test::make_buffer(ElementType::u8, 16, 12, 1, 1);
  const cuda::DeviceView b = cuda.upload(bytes);
  EXPECT_THROW(cuda::blur(b, b, spec, omit, 0, 0), InvalidArgument);
  MissingData host_mask = omit;
  host_mask.mask = full.view;  // host memory: masks on CUDA arrays are CUDA arrays
  EXPECT_THROW(cuda::blur(f, o, spec, host_mask, 0, 0), InvalidArgument);
  BlurSpec present = spec;
  present.with_border(Border::constant);
  present.cval = 3.0;
  test::Buffer untouched = test::make_buffer(ElementType::f32, 29, 21, 1, 2);
  cuda.download(o, untouched);
  EXPECT_THROW(cuda::blur(f, o, present, omit, 0, 0), Unsupported);
  cuda.download(o, omitted);
  EXPECT_TRUE(same_values(omitted.view, untouched.view));
}

// A mask in CUDA memory (flags or certainty weights, one channel for all or one each) and alpha
// weights: the host path's normalized convolution, on every type the copies take.
TEST_F(VulkanTest, CudaViewsWithAMaskOrAlphaGiveTheHostPaths) {
  test::CudaMemory cuda(device_);
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  struct Case {
    ElementType type;
    std::int64_t w, h, d;
    int c;
    Border border;
    ElementType mask;  // b8: none (an alpha blur)
    int mask_channels;
    const char* what;
  };
  const Case cases[] = {
      {ElementType::f32, 37, 23, 1, 3, Border::reflect, ElementType::u8, 1, "flags for every channel"},
      {ElementType::f32, 29, 26, 1, 4, Border::reflect, ElementType::f32, 1, "weights for each of four: a blur each"},
      {ElementType::f32, 31, 17, 4, 2, Border::nearest, ElementType::f32, 2, "weights per channel, a volume"},
      {ElementType::f16, 30, 26, 1, 1, Border::wrap, ElementType::f16, 1, "float16 weights"},
      {ElementType::u16, 33, 21, 1, 1, Border::mirror, ElementType::u8, 1, "integer data, empty pixels cval"},
      {ElementType::u8, 41, 29, 1, 4, Border::reflect, ElementType::b8, 0, "alpha, RGBA8"},
      {ElementType::f32, 35, 19, 1, 4, Border::constant, ElementType::b8, 0, "alpha, float, transparent outside"},
      {ElementType::u16, 27, 22, 1, 2, Border::wrap, ElementType::b8, 0, "alpha, grey and alpha, uint16"}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    BlurSpec spec = k.d > 1 ? BlurSpec::isotropic_3d(1.4) : BlurSpec::isotropic_2d(2.3);
    spec.with_border(k.border);
    spec.cval = k.border == Border::constant ? 0.0 : 7.0;
    MissingData m;
    m.alpha = k.mask == ElementType::b8;
    test::Buffer src = test::make_buffer(k.type, k.w, k.h, k.d, k.c), got = test::make_buffer(k.type, k.w, k.h, k.d, k.c);
    test::Buffer want = test::make_buffer(k.type, k.w, k.h, k.d, k.c);
    test::fill_random(src.view, rng);
    test::Buffer mask = test::make_buffer(m.alpha ? ElementType::u8 : k.mask, k.w, k.h, k.d, std::max(1, k.mask_channels));
    for (std::int64_t z = 0; z < k.d; ++z)
      for (std::int64_t y = 0; y < k.h; ++y)
        for (std::int64_t x = 0; x < k.w; ++x) {
          // A block missing whole (empty pixels where the kernel sees nothing else), scattered holes.
          const bool block = x >= 3 && x < 25 && y >= 2 && y < 21;
          for (int c = 0; c < mask.view.channels; ++c)
            test::set(mask.view, x, y, z, c,
                      k.mask == ElementType::u8 ? (block || u(rng) < 0.2 ? 1.0 : 0.0) : (block ? 0.0 : u(rng)));
          if (m.alpha)  // transparent in the block, partly elsewhere
            test::set(src.view, x, y, z, k.c - 1, block ? 0.0 : u(rng) * test::type_scale(k.type));
        }
    MissingData host = m;
    test::Buffer host_mask = test::make_buffer(k.mask == ElementType::f16 ? ElementType::f32 : mask.view.type, k.w, k.h,
                                               k.d, mask.view.channels);  // the host takes float32 weights
    for (std::int64_t z = 0; z < k.d; ++z)
      for (std::int64_t y = 0; y < k.h; ++y)
        for (std::int64_t x = 0; x < k.w; ++x)
          for (int c = 0; c < mask.view.channels; ++c) test::set(host_mask.view, x, y, z, c, test::get(mask.view, x, y, z, c));
    if (!m.alpha) host.mask = host_mask.view;
    blur(src.view, want.view, spec, host, device_);
    const cuda::DeviceView s = cuda.upload(src), d = cuda.upload(got);
    const cuda::DeviceView mv = m.alpha ? cuda::DeviceView{} : cuda.upload(mask);
    cuda::blur(s, d, spec, m, 0, 0, mv);
    cuda.download(d, got);
    int empty = 0;
    ASSERT_NO_FATAL_FAILURE(expect_the_host_paths_holes(got.view, want.view, empty));
    if (!is_integer(k.type) && !m.alpha) EXPECT_GT(empty, 0) << "the block's centre has no valid sample under the kernel";
    // Colours sharing their weight (alpha, a mask of one channel) travel as one blur with it; else
    // a channel and its weight a blur.
    const int colours = m.alpha ? k.c - 1 : k.c;
    const bool shared = m.alpha || k.mask_channels == 1;
    EXPECT_EQ(cuda::plan(s, d, spec, m, 0, mv).channels, shared && colours < 4 ? colours + 1 : 2);
  }
  // Refused in one line before anything is queued: the host's rules, and a mask of another shape or type.
  test::Buffer rgb = test::make_buffer(ElementType::f32, 16, 12, 1, 3), grey = test::make_buffer(ElementType::f32, 16, 12, 1, 1);
  test::Buffer small = test::make_buffer(ElementType::u8, 15, 12, 1, 1), two = test::make_buffer(ElementType::u8, 16, 12, 1, 2);
  test::Buffer wide = test::make_buffer(ElementType::u16, 16, 12, 1, 1);
  const cuda::DeviceView r = cuda.upload(rgb), g = cuda.upload(grey);
  const BlurSpec spec = BlurSpec::isotropic_2d(1.5);
  MissingData alpha;
  alpha.alpha = true;
  EXPECT_THROW(cuda::blur(g, g, spec, alpha, 0, 0), InvalidArgument);  // one channel has no alpha
  EXPECT_THROW(cuda::blur(r, r, spec, alpha, 0, 0, cuda.upload(grey)), InvalidArgument);  // alpha and a mask
  EXPECT_THROW(cuda::blur(r, r, spec, MissingData{}, 0, 0, cuda.upload(small)), InvalidArgument);
  EXPECT_THROW(cuda::blur(r, r, spec, MissingData{}, 0, 0, cuda.upload(two)), InvalidArgument);
  EXPECT_THROW(cuda::blur(r, r, spec, MissingData{}, 0, 0, cuda.upload(wide)), InvalidArgument);
  BlurSpec outside = spec;
  outside.with_border(Border::constant);
  outside.cval = 0.5;
  EXPECT_THROW(cuda::blur(r, r, outside, alpha, 0, 0), InvalidArgument);  // an alpha blur's outside is transparent
}

TEST_F(VulkanTest, CudaViewsTheCopiesCannotTakeAreRefused) {
  test::CudaMemory cuda(device_);
  test::Buffer a = test::make_buffer(ElementType::f32, 16, 16, 1, 1);
  const BlurSpec spec = BlurSpec::isotropic_2d(1.0);
  cuda::DeviceView v = cuda.upload(a);
  cuda::DeviceView gaps = v;
  gaps.stride[0] = 8;  // a pixel every other float
  gaps.stride[1] = 16 * 8;
  EXPECT_THROW(cuda::blur(gaps, gaps, spec, 0, 0), InvalidArgument);
  cuda::DeviceView overlap = v;
  overlap.stride[1] = 8;
  EXPECT_THROW(cuda::blur(overlap, v, spec, 0, 0), InvalidArgument);
  cuda::DeviceView doubles = v;
  doubles.type = ElementType::f64;
  doubles.stride = {8, 128, 2048};
  EXPECT_THROW(cuda::blur(doubles, doubles, spec, 0, 0), Unsupported);
  cuda::DeviceView smaller = v;
  smaller.extent[0] = 8;
  EXPECT_THROW(cuda::blur(v, smaller, spec, 0, 0), InvalidArgument);
  if (cuda.stand_in()) {  // the stand-in has one device; a GPU machine may have several
    EXPECT_THROW(cuda::vulkan_device_for(3), DeviceError);
    try {
      cuda::vulkan_device_for(3);
    } catch (const DeviceError& e) {
      EXPECT_NE(std::string(e.what()).find("CUDA device 3 does not exist"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace fastblur
