// The Vulkan backend against the CPU on random data: the buffer algorithms (fir, fir-incremental,
// box in its three schedules, iir in both variants, downsample) for every border, element type, awkward
// size and anisotropic sigma, 2D and 3D; the formats of engines (RGBA8, RGBA16F, RGBA32F, R32F);
// tiling; the planner's choice; in place; and the errors. CI runs it on Mesa's lavapipe.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "algorithms/gpu_variants.hpp"
#include "fastblur/error.hpp"
#include "fastblur/plan.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/context.hpp"
#include "vulkan/gpu_blur.hpp"
#include "vulkan/vulkan_test_support.hpp"
#include "vulkan/work.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

struct Shape {
  std::int64_t w, h, d;
  double sx, sy, sz;
};
// 1x1, a column, a row, primes, sigma beyond the image, a volume, a long row.
const Shape kShapes[] = {{1, 1, 1, 2, 2, 0},       {1, 19, 1, 0, 3.3, 0},   {23, 1, 1, 0.6, 1, 0},
                         {31, 29, 1, 2.2, 4.7, 0}, {13, 7, 1, 25, 25, 0},   {9, 8, 7, 1.5, 0.7, 2.5},
                         {257, 3, 1, 40.0, 1.0, 0}};

struct Variant {
  Algorithm algorithm;
  IirVariant iir = IirVariant::deriche;
  const char* gpu_variant;  ///< the named GPU variant the plan runs (gpu_variants.cpp; "": as made)
  const char* name;
};
const Variant kBufferAlgorithms[] = {
    {Algorithm::fir, IirVariant::deriche, "", "fir"},
    {Algorithm::box, IirVariant::deriche, "prefix-sums", "box prefix sums"},
    {Algorithm::box, IirVariant::deriche, "running-sums", "box running sums"},
    {Algorithm::box, IirVariant::deriche, "fused", "box fused"},
    {Algorithm::iir, IirVariant::deriche, "", "iir deriche"},
    {Algorithm::iir, IirVariant::young_van_vliet, "", "iir young-van-vliet"},
    {Algorithm::downsample, IirVariant::deriche, "chain", "downsample chain"},
    {Algorithm::downsample, IirVariant::deriche, "per-axis", "downsample per axis"},
};

// A few float32 rounding steps of the data's scale per pass (recursive filters accumulate more).
double buffer_tolerance(const Variant& v, ElementType type) {
  return (v.algorithm == Algorithm::iir ? 2e-5 : 4e-6) * test::type_scale(type);
}

bool runs(const Variant& v, const Shape& s) {
  for (double sigma : {s.sx, s.sy, s.sz}) {
    if (v.algorithm == Algorithm::iir && sigma > 0 && sigma < 0.5) return false;  // iir needs sigma >= 0.5
    if (v.algorithm == Algorithm::downsample && sigma > 0 && sigma <= 1.23) return false;  // below the resampling's own
  }
  return true;
}

TEST_F(VulkanTest, BufferAlgorithmsMatchTheCpuForEveryBorderTypeAndShape) {
  auto rng = test::rng_for_test();
  for (const Variant& v : kBufferAlgorithms)
    for (int ti = 0; ti < 5; ++ti)
      for (int bi = 0; bi < 5; ++bi)
        for (int si = 0; si < 7; ++si) {
          if (!test::grid_cell(ti, bi, si)) continue;  // FASTBLUR_TEST_SCALE=small (sanitizers): a Latin square
          const ElementType type = test::all_types()[ti];
          const Border border = test::all_borders()[bi];
          const Shape& s = kShapes[si];
          if (!runs(v, s)) continue;
          BlurSpec spec;
          spec.sigma = {s.sx, s.sy, s.sz};
          spec.with_border(border);
          spec.cval = 0.3 * test::type_scale(type);
          spec.algorithm = v.algorithm;
          if (spec.algorithm == Algorithm::iir) set_parameter(spec, "iir_variant", test::iir_name(v.iir));
          const int channels = 1 + static_cast<int>(rng() % 4);
          const double diff = test::gpu_cpu_difference(device_, spec, type, s.w, s.h, s.d, channels, rng, v.algorithm,
                                                       ElementType::f64, v.gpu_variant);
          EXPECT_LE(diff, buffer_tolerance(v, type)) << v.name << ": " << test::describe_case(spec, type, s.w, s.h, s.d, channels);
        }
}

// downsample at every factor, with the shortened low-resolution kernel a tolerance's plan chooses:
// the shader takes the factor and radius from the plan, as the CPU drivers do. Both GPU designs.
TEST_F(VulkanTest, DownsampleAtEveryFactorAndTruncationMatchesTheCpu) {
  auto rng = test::rng_for_test();
  for (const Variant& v : kBufferAlgorithms) {
    if (v.algorithm != Algorithm::downsample) continue;
    for (std::int64_t factor : {2, 4, 8})
      for (Border border : test::all_borders()) {
        BlurSpec spec;
        spec.sigma = {30.0, 12.0, 0.0};
        spec.with_border(border);
        spec.cval = 0.25;
        spec.algorithm = Algorithm::downsample;
        set_parameter(spec, "downsample_factor", factor);
        set_parameter(spec, "downsample_low_truncate", 3.25);
        const double diff = test::gpu_cpu_difference(device_, spec, ElementType::f32, 157, 83, 1, 4, rng, v.algorithm,
                                                     ElementType::f64, v.gpu_variant);
        EXPECT_LE(diff, buffer_tolerance(v, ElementType::f32)) << v.name << " factor " << factor << " " << to_string(border);
      }
  }
}

// downsample on volumes (seed 004's case), anisotropic, one axis left alone, every border, in both
// GPU designs; and the chain is the plan's choice on the GPU.
TEST_F(VulkanTest, DownsampleVolumesMatchTheCpu) {
  auto rng = test::rng_for_test();
  const std::array<double, 3> sigmas[] = {{3.0, 5.0, 2.5}, {4.0, 0.0, 6.0}, {0.0, 2.0, 9.0}};
  for (const Variant& v : kBufferAlgorithms) {
    if (v.algorithm != Algorithm::downsample) continue;
    for (const auto& sigma : sigmas)
      for (Border border : test::all_borders()) {
        BlurSpec spec;
        spec.sigma = sigma;
        spec.with_border(border);
        spec.cval = 0.25;
        spec.algorithm = Algorithm::downsample;
        const int channels = 1 + static_cast<int>(rng() % 4);
        const double diff = test::gpu_cpu_difference(device_, spec, ElementType::f32, 29, 21, 17, channels, rng, v.algorithm,
                                                     ElementType::f64, v.gpu_variant);
        EXPECT_LE(diff, buffer_tolerance(v, ElementType::f32))
            << v.name << ": " << test::describe_case(spec, ElementType::f32, 29, 21, 17, channels);
      }
  }
  BlurSpec spec;
  spec.sigma = {6.0, 6.0, 6.0};
  spec.algorithm = Algorithm::downsample;
  auto volume = test::make_buffer(ElementType::f32, 32, 32, 32, 1);
  const Plan plan = make_plan(spec, volume.view, ElementType::f32, device_);
  EXPECT_EQ(plan.schedule.gpu[0].shader, "downsample_chain");
  EXPECT_NE(describe(plan).find("variant chain"), std::string::npos) << describe(plan);
}

// box's fused schedule where a lane is cut into many chunks (each starting its sums afresh from
// its margins) and the lanes into several dispatches (a small piece limit: a small scratch budget,
// and the image in tiles), every border, 2D and a volume along z.
TEST_F(VulkanTest, BoxFusedChunksAndBatchesMatchTheCpu) {
  auto rng = test::rng_for_test();
  struct Case {
    std::int64_t w, h, d;
    std::array<double, 3> sigma;
    int channels;
  };
  const Case cases[] = {{1000, 9, 1, {3.0, 2.0, 0.0}, 4}, {13, 700, 1, {1.5, 6.0, 0.0}, 3}, {11, 7, 400, {1.0, 0.0, 4.0}, 1}};
  vk::Context& ctx = test::context_of(device_);
  for (std::uint64_t limit : {std::uint64_t{0}, std::uint64_t{96} << 10})
    for (const Case& k : cases)
      for (Border border : test::all_borders()) {
        ctx.set_piece_limit(limit);
        BlurSpec spec;
        spec.sigma = k.sigma;
        spec.with_border(border);
        spec.cval = 0.25;
        spec.algorithm = Algorithm::box;
        const double diff = test::gpu_cpu_difference(device_, spec, ElementType::f32, k.w, k.h, k.d, k.channels, rng,
                                                     Algorithm::box, ElementType::f64, "fused");
        ctx.set_piece_limit(0);
        EXPECT_LE(diff, 4e-6) << "limit " << limit << ": " << test::describe_case(spec, ElementType::f32, k.w, k.h, k.d, k.channels);
      }
}

// fir register-blocked (the variant "out8": 8 outputs a thread, fir_line_o8 / fir_across_o8) against
// the CPU: every shape (a tile of 512 outputs wider than the row, radii beyond the tile's bucket),
// border, type and channel count, 2D and volumes; and the plan says what runs.
TEST_F(VulkanTest, FirRegisterBlockedMatchesTheCpu) {
  auto rng = test::rng_for_test();
  const auto variants = algo::gpu_variants(Algorithm::fir);
  ASSERT_EQ(variants.size(), 2u);
  ASSERT_EQ(variants[1].name, "out8");
  vk::Context& ctx = test::context_of(device_);
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  shapes.push_back({700, 5, 1, 60.0, 2.0, 0});  // a tile beyond the shared bucket's radius, two tiles a row
  shapes.push_back({21, 600, 1, 1.0, 70.0, 0});
  for (std::size_t si = 0; si < shapes.size(); ++si)
    for (int ti = 0; ti < 5; ++ti) {
      const Shape& s = shapes[si];
      const ElementType type = test::all_types()[ti];
      const Border border = test::all_borders()[(si + static_cast<std::size_t>(ti)) % 5];
      const int channels = 1 + static_cast<int>(rng() % 4);
      BlurSpec spec;
      spec.sigma = {s.sx, s.sy, s.sz};
      spec.with_border(border);
      spec.cval = 0.3 * test::type_scale(type);
      spec.algorithm = Algorithm::fir;
      auto src = test::make_buffer(type, s.w, s.h, s.d, channels);
      test::fill_random(src.view, rng);
      auto gpu = test::make_buffer(ElementType::f64, s.w, s.h, s.d, channels);
      auto cpu = test::make_buffer(ElementType::f64, s.w, s.h, s.d, channels);
      Plan plan = make_plan(spec, src.view, ElementType::f64, device_);
      variants[1].apply(plan, vk::shape_on(ctx, {s.w, s.h, s.d}, channels, type, ElementType::f64));
      bool passes = false;  // none where no axis is filtered (a 1x1 image): then nothing runs
      for (const GpuPass& g : plan.schedule.gpu)
        if (!g.shader.empty()) {
          passes = true;
          EXPECT_NE(g.shader.find("_o8"), std::string::npos) << g.shader;
        }
      if (passes) EXPECT_EQ(algo::gpu_variant_of(plan), "out8");
      blur(src.view, gpu.view, plan, device_);
      blur(src.view, cpu.view, spec);
      EXPECT_LE(test::max_difference(gpu.view, cpu.view), 4e-6 * test::type_scale(type))
          << test::describe_case(spec, type, s.w, s.h, s.d, channels);
    }
}

TEST_F(VulkanTest, VolumesWithAnisotropicSigma) {
  // Seed 004: 3D Gaussian convolution of a float volume; fir, box and iir along x, y and z.
  auto rng = test::rng_for_test();
  for (const Variant& v : kBufferAlgorithms) {
    if (v.algorithm == Algorithm::downsample) continue;
    for (Border border : {Border::reflect, Border::nearest, Border::constant}) {
      BlurSpec spec;
      spec.sigma = {1.0, 4.0, 2.5};
      spec.with_border(border);
      spec.cval = 0.25;
      spec.algorithm = v.algorithm;
      if (spec.algorithm == Algorithm::iir) set_parameter(spec, "iir_variant", test::iir_name(v.iir));
      const double diff = test::gpu_cpu_difference(device_, spec, ElementType::f32, 24, 19, 17, 1, rng, v.algorithm,
                                                   ElementType::f64, v.gpu_variant);
      EXPECT_LE(diff, buffer_tolerance(v, ElementType::f32)) << v.name << " " << to_string(border);
    }
  }
}

TEST_F(VulkanTest, PrefixSumsDoNotDriftOnLongRows) {
  // Seed 001's scan over 16384 samples (64 chunks, each adding the sum carried from the others), data
  // near 1000: plain float prefix sums reach 1.6e7, where a float's step is 1, so a window's
  // difference would be off by about 1 and its mean by 0.14. The double-float sums keep each pass
  // at float precision: a window of about 7000 rounds to 5e-4, 7e-5 after dividing, over three
  // passes a few 1e-4.
  auto rng = test::rng_for_test();
  const std::int64_t n = 16384;
  std::vector<float> row(static_cast<std::size_t>(n));
  std::uniform_real_distribution<float> u(1000.0f, 1001.0f);
  for (float& v : row) v = u(rng);
  std::vector<float> gpu(row.size()), cpu(row.size());
  BlurSpec spec;
  spec.sigma = {3.0, 0, 0};
  spec.algorithm = Algorithm::box;
  const View in = View::packed(row.data(), ElementType::f32, n, 1);
  Plan plan = make_plan(spec, in, device_);
  test::gpu_variant(Algorithm::box, "prefix-sums")
      ->apply(plan, vk::shape_on(test::context_of(device_), {n, 1, 1}, 1, ElementType::f32, ElementType::f32));
  ASSERT_EQ(plan.schedule.gpu[0].shader, "box_scan");
  blur(in, View::packed(gpu.data(), ElementType::f32, n, 1), plan, device_);
  blur(in, View::packed(cpu.data(), ElementType::f32, n, 1), spec);
  double worst = 0.0;
  for (std::size_t i = 0; i < row.size(); ++i) worst = std::max(worst, std::abs(static_cast<double>(gpu[i]) - cpu[i]));
  std::printf("[ measured ] box prefix sums, 16384 samples near 1000: max |gpu - cpu| %.3g\n", worst);
  EXPECT_LE(worst, 1e-3);
}

TEST_F(VulkanTest, IncrementalWeightsStayWithinTheSeedBound) {
  // Seed 000: the forward-quotient weights are within 1/256 of the centre coefficient; after
  // normalisation the blur differs from fir by much less (bounded here at 2e-4 of the range).
  auto rng = test::rng_for_test();
  for (double sigma : {0.8, 3.0, 17.0}) {
    BlurSpec spec = BlurSpec::isotropic_2d(sigma);
    spec.algorithm = Algorithm::fir_incremental;
    EXPECT_LE(test::gpu_cpu_difference(device_, spec, ElementType::f32, 61, 47, 1, 3, rng, Algorithm::fir), 2e-4) << sigma;
  }
}

TEST_F(VulkanTest, RecursiveFiltersInFloatHoldAtLargeSigma) {
  // The recursions run in float32 on the device: measured against the CPU's double at large sigma.
  auto rng = test::rng_for_test();
  for (IirVariant variant : {IirVariant::deriche, IirVariant::young_van_vliet})
    for (double sigma : {50.0, 200.0}) {
      BlurSpec spec;
      spec.sigma = {sigma, 0, 0};
      spec.algorithm = Algorithm::iir;
      set_parameter(spec, "iir_variant", test::iir_name(variant));
      const double diff = test::gpu_cpu_difference(device_, spec, ElementType::f32, 1200, 2, 1, 1, rng, Algorithm::iir);
      std::printf("[ measured ] iir %s sigma %g: max |gpu - cpu| %.3g\n",
                  variant == IirVariant::deriche ? "deriche" : "young-van-vliet", sigma, diff);
      EXPECT_LE(diff, 2e-4) << sigma;
    }
}

TEST_F(VulkanTest, RecursiveFiltersWithoutFloat64) {
  // Devices without shaderFloat64: Deriche runs in float32 in its parallel form at any sigma;
  // Young-van Vliet's direct form holds up to sigma 20 and larger sigmas are refused clearly.
  auto rng = test::rng_for_test();
  test::context_of(device_).set_float64(false);
  struct Case { IirVariant variant; double sigma, bound; };
  for (const Case& c : {Case{IirVariant::deriche, 3.0, 2e-6}, Case{IirVariant::deriche, 10.0, 2e-6},
                        Case{IirVariant::deriche, 100.0, 1e-5}, Case{IirVariant::deriche, 900.0, 5e-5},
                        Case{IirVariant::young_van_vliet, 5.0, 2e-5}, Case{IirVariant::young_van_vliet, 20.0, 2e-4}}) {
    BlurSpec spec;
    spec.sigma = {c.sigma, 0, 0};
    spec.algorithm = Algorithm::iir;
    if (spec.algorithm == Algorithm::iir) set_parameter(spec, "iir_variant", test::iir_name(c.variant));
    double diff = INFINITY;
    try {
      diff = test::gpu_cpu_difference(device_, spec, ElementType::f32, 600, 2, 1, 1, rng, Algorithm::iir);
    } catch (...) {
      test::context_of(device_).set_float64(true);
      throw;
    }
    std::printf("[ measured ] float32 iir %s sigma %g: max |gpu - cpu| %.3g\n",
                c.variant == IirVariant::deriche ? "deriche (parallel form)" : "young-van-vliet", c.sigma, diff);
    EXPECT_LE(diff, c.bound) << c.sigma;
  }
  BlurSpec big;
  big.sigma = {30.0, 0, 0};
  big.algorithm = Algorithm::iir;
  set_parameter(big, "iir_variant", test::iir_name(IirVariant::young_van_vliet));
  std::vector<float> px(64, 0.5f);
  const View v = View::packed(px.data(), ElementType::f32, 64, 1);
  EXPECT_THROW(blur(v, v, big, device_), Unsupported);
  test::context_of(device_).set_float64(true);
  // With float64 on the device, Deriche still plans float32; Young-van Vliet asks for float64 only
  // beyond sigma 20.
  BlurSpec d;
  d.sigma = {200.0, 0, 0};
  d.algorithm = Algorithm::iir;
  if (test::context_of(device_).has_float64()) {
    const auto real = [&] { return make_plan(d, v, ElementType::f32, device_).schedule.gpu[0].real; };
    EXPECT_EQ(real(), ElementType::f32);
    set_parameter(d, "iir_variant", test::iir_name(IirVariant::young_van_vliet));
    EXPECT_EQ(real(), ElementType::f64);
    EXPECT_NE(describe(make_plan(d, v, ElementType::f32, device_)).find("x iir_line_f64"), std::string::npos);
    d.sigma = {5.0, 0, 0};
    EXPECT_EQ(real(), ElementType::f32);
  }
}

TEST_F(VulkanTest, BothScratchLayoutsGiveTheSameResult) {
  // box's running sums and iir keep per-line scratch interleaved across lines (GPUs: coalesced) or
  // line by line (CPU devices such as lavapipe, where CI runs): the same arithmetic, the same bits.
  auto rng = test::rng_for_test();
  auto src = test::make_buffer(ElementType::f32, 37, 29, 5, 3);
  test::fill_random(src.view, rng);
  struct Case { Algorithm algorithm; IirVariant variant; };
  for (const Case& c : {Case{Algorithm::box, IirVariant::deriche}, Case{Algorithm::iir, IirVariant::deriche},
                        Case{Algorithm::iir, IirVariant::young_van_vliet}}) {
    BlurSpec spec = BlurSpec::isotropic_3d(2.5);
    spec.algorithm = c.algorithm;
    if (spec.algorithm == Algorithm::iir) set_parameter(spec, "iir_variant", test::iir_name(c.variant));
    spec.with_border(Border::mirror);
    Plan plan = make_plan(spec, src.view, ElementType::f32, device_);  // box: running sums, the planner's
    auto a = test::make_buffer(ElementType::f32, 37, 29, 5, 3), b = test::make_buffer(ElementType::f32, 37, 29, 5, 3);
    plan.schedule.gpu_interleave_scratch = true;  // the plan's choice, as a caller may change it
    blur(src.view, a.view, plan, device_);
    plan.schedule.gpu_interleave_scratch = false;
    blur(src.view, b.view, plan, device_);
    EXPECT_EQ(a.bytes, b.bytes) << to_string(c.algorithm);
  }
}

TEST_F(VulkanTest, LargeImagesTravelInPartsOfRows) {
  // One part per 4 MiB (1 to 8, at most one per row): each part is packed while the one before
  // uploads, and unpacked while the next downloads.
  EXPECT_EQ(vk::transfer_parts(1u << 20, 512), 1);
  EXPECT_EQ(vk::transfer_parts(16u << 20, 1024), 4);
  EXPECT_EQ(vk::transfer_parts(1ull << 30, 2160), 8);
  EXPECT_EQ(vk::transfer_parts(64u << 20, 3), 3);
  auto rng = test::rng_for_test();
  const std::int64_t w = 1000, h = 1030;  // rows not a multiple of the parts
  auto src = test::make_buffer(ElementType::u16, w, h, 1, 4);
  test::fill_random(src.view, rng);
  BlurSpec spec = BlurSpec::isotropic_2d(1.0);
  spec.algorithm = Algorithm::fir;
  auto gpu = test::make_buffer(ElementType::f32, w, h, 1, 4), cpu = test::make_buffer(ElementType::f32, w, h, 1, 4);
  vk::Timing t;
  test::gpu_blur_timed(device_, src.view, gpu.view, spec, &t);  // u16 up (8 MB), float32 down (16 MB)
  EXPECT_EQ(t.transfer_parts, 3);
  blur(src.view, cpu.view, spec);
  EXPECT_LE(test::max_difference(gpu.view, cpu.view), 0.02);  // of 65535
  // In place, in parts: every part is uploaded before any is downloaded.
  auto in_place = test::make_buffer(ElementType::f32, w, h, 1, 4), out = test::make_buffer(ElementType::f32, w, h, 1, 4);
  test::fill_random(in_place.view, rng);
  blur(in_place.view, out.view, spec, device_);
  test::gpu_blur_timed(device_, in_place.view, in_place.view, spec, &t);
  EXPECT_EQ(t.transfer_parts, 3);
  EXPECT_EQ(in_place.bytes, out.bytes);
}

TEST_F(VulkanTest, FirRowsForEveryChannelCountAndRadiusBeyondSharedMemory) {
  // fir along x: a vector pixel per shared slot, four outputs per thread, one shader variant per
  // channel count; along y and z four outputs per thread; radii from 1 to past what shared memory holds (the bucket's tile, the radius's
  // own tile, and device-memory taps: 32 KiB on lavapipe holds 256 + 2 R RGBA pixels to R ~ 780),
  // rows shorter than a thread's four outputs and longer than a tile, every border.
  auto rng = test::rng_for_test();
  const auto shared = test::context_of(device_).limits().maxComputeSharedMemorySize;
  int cases = 0;
  for (const int channels : {1, 2, 3, 4}) {
    for (const double sigma : {0.3, 2.0, 60.0, 250.0}) {
      for (const Border border : test::all_borders()) {
        const int b = static_cast<int>(border);
        if (sigma > 100 && (b + channels) % 3 != 0) continue;  // the long ones: a third of the borders each
        const std::int64_t w = sigma > 100 ? 1500 : (b + channels) % 2 ? 3 : 301;
        // Along x (fir_line.comp), and along y or z (fir_across.comp: four outputs a thread too).
        const int axis = (b + channels + static_cast<int>(sigma)) % 3;
        BlurSpec spec;
        spec.sigma = {0, 0, 0};
        spec.sigma[static_cast<std::size_t>(axis)] = sigma;
        spec.algorithm = (b + channels) % 4 == 0 ? Algorithm::fir_incremental : Algorithm::fir;
        spec.with_border(border);
        spec.cval = -0.5;
        std::array<std::int64_t, 3> shape{3, 3, 2};
        shape[static_cast<std::size_t>(axis)] = w;
        const double diff =
            test::gpu_cpu_difference(device_, spec, ElementType::f32, shape[0], shape[1], shape[2], channels, rng, Algorithm::fir);
        // float32 sums of 2 R + 1 taps: rounding grows with the radius (R = 1000 at sigma 250).
        EXPECT_LE(diff, spec.algorithm == Algorithm::fir_incremental ? 2e-4 : sigma > 100 ? 2e-5 : 2e-6)
            << channels << " channels, sigma " << sigma << " along axis " << axis << ", " << to_string(border) << ", "
            << to_string(spec.algorithm);
        ++cases;
      }
    }
  }
  EXPECT_GE(cases, 60);
  std::printf("[ device   ] %u bytes of shared memory: sigma 250's radius 1000 reads device memory per tap\n", shared);
}

TEST_F(VulkanTest, IirRowsThroughSharedMemoryGiveTheBitsOfALanePerThread) {
  // iir along x takes whole lines per workgroup in blocks of samples through shared memory: the
  // same recursions on the same floats as a lane per thread, so the same bits, for every border,
  // channel count, variant and precision; line counts that leave a
  // workgroup part empty, lines shorter and longer than a block, and batches of a few workgroups.
  auto rng = test::rng_for_test();
  vk::Context& ctx = test::context_of(device_);
  const bool float64 = ctx.has_float64();
  struct Case { IirVariant variant; bool float64; };
  int compared = 0;
  for (const int channels : {1, 2, 3, 4}) {
    for (const Case& v : {Case{IirVariant::deriche, false}, Case{IirVariant::young_van_vliet, false},
                          Case{IirVariant::young_van_vliet, true}}) {
      if (v.float64 && !float64) continue;
      for (const Border border : test::all_borders()) {
        const std::int64_t w = (channels + static_cast<int>(border)) % 2 ? 45 : 7, h = 23, d = 2;
        auto src = test::make_buffer(ElementType::f32, w, h, d, channels);
        test::fill_random(src.view, rng);
        BlurSpec spec;
        spec.sigma = {3.5, 0, 0};  // along x only: the pass under test
        spec.algorithm = Algorithm::iir;
        set_parameter(spec, "iir_variant", test::iir_name(v.variant));
        spec.with_border(border);
        spec.cval = 0.25;
        Plan plan = make_plan(spec, src.view, ElementType::f32, device_);
        for (GpuPass& g : plan.schedule.gpu)  // the passes' precision and shaders, which the recorder runs
          if (g.shader.rfind("iir_line", 0) == 0) {
            g.shader = v.float64 ? "iir_line_f64" : "iir_line_f32";
            g.real = v.float64 ? ElementType::f64 : ElementType::f32;
          }
        auto tiled = test::make_buffer(ElementType::f32, w, h, d, channels);
        auto lanes = test::make_buffer(ElementType::f32, w, h, d, channels), cpu = test::make_buffer(ElementType::f32, w, h, d, channels);
        ctx.set_float64(v.float64);
        ASSERT_GT(plan.schedule.gpu[0].tile, 0) << "the plan keeps whole lines in shared memory";
        // Batches of one workgroup of 64 / C lines: several dispatches.
        plan.schedule.gpu[0].batch = plan.schedule.gpu[0].tile;
        Plan lane_plan = plan;
        lane_plan.schedule.gpu[0].tile = 0;  // a lane per thread: the plan's other variant
        try {
          blur(src.view, tiled.view, plan, device_);
          blur(src.view, lanes.view, lane_plan, device_);
        } catch (...) {
          ctx.set_float64(true);
          throw;
        }
        ctx.set_float64(true);
        EXPECT_EQ(tiled.bytes, lanes.bytes) << channels << " channels, " << to_string(border) << ", "
                                            << test::iir_name(v.variant) << (v.float64 ? ", float64" : "") << ", w " << w
                                            << ": max |tiled - lanes| " << test::max_difference(tiled.view, lanes.view);
        blur(src.view, cpu.view, spec);
        EXPECT_LE(test::max_difference(tiled.view, cpu.view), 2e-5) << channels << " channels, " << to_string(border);
        ++compared;
      }
    }
  }
  EXPECT_GE(compared, 50);
}

TEST_F(VulkanTest, EngineFormats) {
  // RGBA8, RGBA16F (seed 001's render target), RGBA32F and R32F in and out, every algorithm.
  auto rng = test::rng_for_test();
  struct Format { ElementType type; int channels; };
  for (const Format f : {Format{ElementType::u8, 4}, Format{ElementType::f16, 4}, Format{ElementType::f32, 4},
                         Format{ElementType::f32, 1}})
    for (const AlgorithmInfo& info : algorithms()) {
      if (info.id == Algorithm::automatic || info.id == Algorithm::fft) continue;
      BlurSpec spec = BlurSpec::isotropic_2d(3.5);
      spec.algorithm = info.id;
      spec.with_border(Border::mirror);
      const Algorithm cpu = info.gpu_only ? Algorithm::fir : info.id;
      // Outputs in the input's own type: integer results may round differently by one.
      const double diff = test::gpu_cpu_difference(device_, spec, f.type, 37, 29, 1, f.channels, rng, cpu, f.type);
      const double tol = f.type == ElementType::u8    ? 1.0
                         : f.type == ElementType::f16 ? 2e-3
                         : info.id == Algorithm::fir_incremental ? 2e-4
                         : info.id == Algorithm::mip_poisson     ? 1e-4
                                                                 : 2e-5;
      EXPECT_LE(diff, std::max(tol, info.gpu_only || info.planar || info.id == Algorithm::kawase
                                        ? texture_tolerance(f.type) : 0.0))
          << info.name << " " << to_string(f.type) << " x" << f.channels;
    }
}

TEST_F(VulkanTest, InPlaceStridedAndFlipped) {
  auto rng = test::rng_for_test();
  auto a = test::make_buffer(ElementType::f32, 40, 30, 1, 3, 4, 12, true);
  test::fill_random(a.view, rng);
  auto b = test::make_buffer(ElementType::f32, 40, 30, 1, 3);
  BlurSpec spec = BlurSpec::isotropic_2d(3.0);
  blur(a.view, b.view, spec);  // CPU, automatic = fir
  blur(a.view, a.view, spec, device_);
  double worst = 0.0;
  for (std::int64_t y = 0; y < 30; ++y)
    for (std::int64_t x = 0; x < 40; ++x)
      for (int c = 0; c < 3; ++c)
        worst = std::max(worst, std::abs(test::get(a.view, x, y, 0, c) - test::get(b.view, x, y, 0, c)));
  EXPECT_LE(worst, 4e-6);
}

TEST_F(VulkanTest, AutomaticPlansForTheGpu) {
  auto rng = test::rng_for_test();
  std::vector<float> px(96 * 64 * 4);
  const View v = View::packed(px.data(), ElementType::f32, 96, 64, 1, 4);
  BlurSpec spec = BlurSpec::isotropic_2d(12.0);
  // Exact: fir (fft is not on the GPU); sliding-dct fitted to fir's kernel is considered (this device
  // has float64), the model's cost above fir's at radius 48.
  const Plan exact = make_plan(spec, v, device_);
  EXPECT_EQ(exact.spec.algorithm, Algorithm::fir);
  EXPECT_TRUE(std::any_of(exact.considered.begin(), exact.considered.end(),
                          [](const std::string& l) { return l.find("sliding-dct") != std::string::npos && l.find("fir") != std::string::npos; }))
      << describe(exact);
  // Exact at sigma 50 (fir's radius 200, on an image wider than it): the series fitted to fir's
  // kernel, constant in sigma, where the model (no profile of this device) costs it below fir's taps.
  BlurSpec wide = BlurSpec::isotropic_2d(50.0);
  const Plan large = make_plan(wide, View::packed(static_cast<float*>(nullptr), ElementType::f32, 1024, 768, 1, 4), device_);
  EXPECT_EQ(large.spec.algorithm, Algorithm::sliding_dct) << describe(large);
  EXPECT_EQ(large.schedule.gpu[0].shader, "sdct_chunks");
  spec.tolerance = 0.05;
  const Plan gpu = make_plan(spec, v, device_);
  EXPECT_NE(gpu.spec.algorithm, Algorithm::fft);
  EXPECT_LE(gpu.predicted_max_error, 0.05);
  for (const std::string& line : gpu.considered) EXPECT_EQ(line.find("fft"), std::string::npos) << line;
  // The blur runs what was planned, and within its predicted error of the exact result (a
  // smooth image: the error of the impulse response bounds the image's relative error).
  const double diff = test::gpu_cpu_difference(device_, spec, ElementType::f32, 96, 64, 1, 1, rng, Algorithm::fir);
  EXPECT_LE(diff, 0.05 * 2.0);
  // A volume leaves out the 2D texture algorithms.
  std::vector<float> vol(16 * 16 * 16);
  BlurSpec s3 = BlurSpec::isotropic_3d(6.0);
  s3.tolerance = 0.5;
  for (const std::string& line : make_plan(s3, View::packed(vol.data(), ElementType::f32, 16, 16, 16), device_).considered)
    for (const char* name : {"kawase", "mip-poisson", "fir-linear"}) EXPECT_EQ(line.find(name), std::string::npos) << line;
}

// The blur of `spec` on the GPU in one piece and in tiles of at most `limit` bytes: equal.
void expect_tiles_equal_one_piece(const Device& device, const BlurSpec& spec, ElementType type, std::int64_t w,
                                  std::int64_t h, std::int64_t d, int channels, std::uint64_t limit, std::mt19937_64& rng,
                                  double tolerance) {
  auto src = test::make_buffer(type, w, h, d, channels);
  test::fill_random(src.view, rng);
  auto whole = test::make_buffer(ElementType::f64, w, h, d, channels), tiled = whole;
  tiled.view.data = tiled.bytes.data();
  vk::Timing one, many;
  test::gpu_blur_timed(device, src.view, whole.view, spec, &one);
  test::context_of(device).set_piece_limit(limit);
  try {
    test::gpu_blur_timed(device, src.view, tiled.view, spec, &many);
  } catch (...) {
    test::context_of(device).set_piece_limit(0);
    throw;
  }
  test::context_of(device).set_piece_limit(0);
  EXPECT_EQ(one.pieces, 1);
  EXPECT_GT(many.pieces, 1) << to_string(spec.algorithm);
  double worst = 0.0;
  for (std::size_t i = 0; i < whole.bytes.size() / 8; ++i) {
    double a, b;
    std::memcpy(&a, whole.bytes.data() + 8 * i, 8);
    std::memcpy(&b, tiled.bytes.data() + 8 * i, 8);
    worst = std::max(worst, std::abs(a - b));
  }
  std::printf("[ measured ] %s in %d tiles: max |tiled - whole| %.3g\n", std::string(to_string(spec.algorithm)).c_str(),
              many.pieces, worst);
  EXPECT_LE(worst, tolerance) << to_string(spec.algorithm) << " in " << many.pieces << " tiles";
}

TEST_F(VulkanTest, TilesGiveTheSameResultAsOnePiece) {
  auto rng = test::rng_for_test();
  for (const AlgorithmInfo& info : algorithms()) {
    if (info.id == Algorithm::automatic || info.id == Algorithm::fft) continue;
    for (Border border : {Border::wrap, Border::constant}) {
      BlurSpec spec;
      spec.sigma = {4.0, 2.5, 0.0};
      spec.algorithm = info.id;
      spec.with_border(border);
      spec.cval = 0.7;
      // 150 x 120 x 3 floats is 216 KB; pieces of at most 64 KB need several tiles with halos.
      // Float rounding may differ in the last bit or two (the device's code paths for partial
      // workgroups); texture coordinates are computed against differently sized images.
      const bool texture = info.gpu_only || info.planar || info.id == Algorithm::kawase;
      expect_tiles_equal_one_piece(device_, spec, ElementType::f32, 150, 120, 1, 3, 64 << 10, rng,
                                   texture && info.id != Algorithm::fir_incremental ? texture_tolerance(ElementType::f32) + 1e-5
                                                                                   : 1e-6);
    }
  }
  BlurSpec vol;
  vol.sigma = {1.5, 2.0, 3.0};
  vol.algorithm = Algorithm::fir;
  vol.with_border(Border::mirror);
  // 64 KB pieces of a 173 KB (as float) volume: cut along more than one axis, with fir's halos
  // (7, 9, 13) and box's.
  expect_tiles_equal_one_piece(device_, vol, ElementType::u16, 40, 36, 30, 1, 64 << 10, rng, 1e-6 * 65535);
  vol.algorithm = Algorithm::box;
  expect_tiles_equal_one_piece(device_, vol, ElementType::f32, 40, 36, 30, 1, 96 << 10, rng, 1e-6);
}

TEST_F(VulkanTest, AnImageBeyondTheStorageBufferRange) {
  // lavapipe allows 128 MiB per storage buffer: 4800 x 2400 RGBA8 is 184 MB as float32, so it is
  // blurred in tiles, each against the CPU. Under FASTBLUR_TEST_SCALE=small (the sanitizers, which
  // look for memory and thread errors on the same path, not at the size) the context's range is
  // lowered to 16 MiB and the image is 1200 x 1200 (23 MB as float32): the same tiling, 1/8 of the
  // pixels.
  const DeviceInfo info = vulkan_devices()[0];
  const bool small = test::small_scale();
  const std::int64_t w = small ? 1200 : 4800, h = small ? 1200 : 2400;
  const std::uint64_t range = small ? std::min<std::uint64_t>(16u << 20, info.max_storage_buffer_range) : info.max_storage_buffer_range;
  if (static_cast<double>(w * h * 4) * 4 <= static_cast<double>(range))
    GTEST_SKIP() << "this device holds " << range << " bytes in one buffer";
  if (small) test::context_of(device_).set_piece_limit(range);
  struct Restore {
    vk::Context& ctx;
    ~Restore() { ctx.set_piece_limit(0); }
  } restore{test::context_of(device_)};
  auto rng = test::rng_for_test();
  auto src = test::make_buffer(ElementType::u8, w, h, 1, 4);
  std::uniform_int_distribution<int> u(0, 255);
  for (auto& b : src.bytes) b = static_cast<std::byte>(u(rng));
  auto gpu = test::make_buffer(ElementType::u8, w, h, 1, 4), cpu = gpu;
  cpu.view.data = cpu.bytes.data();
  BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  spec.algorithm = Algorithm::fir;
  vk::Timing t;
  test::gpu_blur_timed(device_, src.view, gpu.view, spec, &t);
  blur(src.view, cpu.view, spec);
  EXPECT_GT(t.pieces, 1);
  int worst = 0;
  for (std::size_t i = 0; i < gpu.bytes.size(); ++i)
    worst = std::max(worst, std::abs(static_cast<int>(gpu.bytes[i]) - static_cast<int>(cpu.bytes[i])));
  std::printf("[ measured ] %lldx%lld RGBA8 in %d tiles: max |gpu - cpu| %d\n", static_cast<long long>(w),
              static_cast<long long>(h), t.pieces, worst);
  EXPECT_LE(worst, 1);
}

TEST_F(VulkanTest, ErrorsAreClear) {
  std::vector<float> px(64, 0.5f);
  const View v = View::packed(px.data(), ElementType::f32, 8, 8);
  BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  spec.algorithm = Algorithm::fft;
  EXPECT_THROW(blur(v, v, spec, device_), Unsupported) << "fft";
  spec.algorithm = Algorithm::fir;
  spec.order = {1, 0, 0};
  EXPECT_THROW(blur(v, v, spec, device_), Unsupported);
  spec.order = {0, 0, 0};
  // The texture algorithms blur 2D images: a volume is refused, naming what to use instead.
  std::vector<float> vol(8 * 8 * 4, 0.5f);
  const View volume = View::packed(vol.data(), ElementType::f32, 8, 8, 4);
  for (Algorithm a : {Algorithm::fir_linear, Algorithm::kawase}) {
    BlurSpec s = BlurSpec::isotropic_3d(2.0);
    s.algorithm = a;
    try {
      blur(volume, volume, s, device_);
      ADD_FAILURE() << to_string(a) << " blurred a volume";
    } catch (const Unsupported& e) {
      EXPECT_NE(std::string(e.what()).find("2D"), std::string::npos) << e.what();
    }
  }
  for (float p : vol) EXPECT_EQ(p, 0.5f);  // nothing was written
  EXPECT_THROW(Device::vulkan(999), DeviceError);
  EXPECT_THROW(Device::vulkan(std::string_view("no such device name")), DeviceError);
  EXPECT_THROW(Device::parse("gpu"), InvalidArgument);
  EXPECT_THROW(Device::parse("vulkan:"), InvalidArgument);
  EXPECT_EQ(Device::parse("vulkan:0").description().rfind("vulkan:0", 0), 0u);
  EXPECT_TRUE(Device::parse("cpu").is_cpu());
  // Device memory exhausted: a clear OutOfMemory, not a crash.
  EXPECT_THROW(vk::Buffer(DeviceAccess::context(device_), std::uint64_t{1} << 46, vk::Buffer::Kind::device), OutOfMemory);
  // iir outside its range, checked before anything is recorded.
  spec.algorithm = Algorithm::iir;
  spec.sigma = {0.3, 0.3, 0};
  EXPECT_THROW(blur(v, v, spec, device_), InvalidArgument);
}

TEST(VulkanCpu, GpuTechniquesAreRefusedOnTheCpu) {
  std::vector<float> px(64, 0.5f);
  const View v = View::packed(px.data(), ElementType::f32, 8, 8);
  for (const AlgorithmInfo& info : algorithms()) {
    if (!info.gpu_only) continue;
    BlurSpec spec = BlurSpec::isotropic_2d(2.0);
    spec.algorithm = info.id;
    EXPECT_THROW(blur(v, v, spec), Unsupported) << info.name;
  }
}

}  // namespace
}  // namespace fastblur
