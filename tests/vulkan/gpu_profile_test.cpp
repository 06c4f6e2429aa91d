// A measured profile of the device changes the plan (issue 47): the fastest measured variant runs,
// auto picks the candidate measured fastest within the tolerance, --explain names the profile; with
// none, the model. (Profile files, their parsing and warnings: tests/algorithms/gpu_profile_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "algorithms/descriptor.hpp"
#include "algorithms/gpu_profile.hpp"
#include "algorithms/dual_kawase.hpp"
#include "algorithms/gpu_variants.hpp"
#include "algorithms/kawase.hpp"
#include "fastblur/plan.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur {
namespace {

using test::VulkanTest;

// Puts a profile on the test device's context for the scope, then the one it had back.
class ProfileOnDevice {
 public:
  ProfileOnDevice(vk::Context& context, std::shared_ptr<const algo::GpuProfile> profile)
      : context_(context), before_(context.profile()) {
    context_.set_profile(std::move(profile));
  }
  ~ProfileOnDevice() { context_.set_profile(before_); }

 private:
  vk::Context& context_;
  std::shared_ptr<const algo::GpuProfile> before_;
};

// A profile of this device with one case per (algorithm, variant) at this image and sigma.
struct Measured {
  Algorithm algorithm;
  std::string variant;
  double ms;
};
std::shared_ptr<const algo::GpuProfile> profile_of(const vk::Context& context, const std::string& source,
                                                   const std::vector<Measured>& cases, std::int64_t w, std::int64_t h,
                                                   double sigma, ElementType type = ElementType::f32) {
  auto p = std::make_shared<algo::GpuProfile>();
  p->device = context.info().name;
  p->source = source;
  for (const Measured& m : cases) {
    algo::GpuProfileCase c;
    c.algorithm = m.algorithm;
    c.variant = m.variant;
    c.type = type;
    c.channels = 4;
    c.extent = {w, h, 1};
    c.sigma = sigma;
    c.ms = m.ms;
    c.model_cost = 1.0;
    p->cases.push_back(c);
  }
  p->ms_per_cost_value = 1e-6;
  return p;
}

TEST_F(VulkanTest, AMeasuredProfileRunsTheFastestVariant) {
  vk::Context& context = test::context_of(device_);
  auto image = test::make_buffer(ElementType::f32, 160, 120, 1, 4);
  BlurSpec spec;
  spec.sigma = {6.0, 6.0, 0.0};
  spec.algorithm = Algorithm::downsample;
  const Plan model = make_plan(spec, image.view, ElementType::f32, device_);
  EXPECT_EQ(algo::gpu_variant_of(model), "chain");
  EXPECT_TRUE(model.cost_profile.empty());
  EXPECT_NE(describe(model).find("costs: the model"), std::string::npos) << describe(model);
  {
    ProfileOnDevice on(context, profile_of(context, "per-axis faster",
                                           {{Algorithm::downsample, "chain", 2.0}, {Algorithm::downsample, "per-axis", 0.5}},
                                           160, 120, 6.0));
    const Plan measured = make_plan(spec, image.view, ElementType::f32, device_);
    EXPECT_EQ(measured.schedule.gpu[0].shader, "downsample_line");
    EXPECT_EQ(algo::gpu_variant_of(measured), "per-axis");
    EXPECT_NE(describe(measured).find("costs: the measured profile of " + context.info().name + " (per-axis faster)"),
              std::string::npos)
        << describe(measured);
    // What the plan runs gives the CPU's result.
    auto rng = test::rng_for_test();
    EXPECT_LE(test::gpu_cpu_difference(device_, spec, ElementType::f32, 160, 120, 1, 4, rng, Algorithm::downsample),
              4e-6);
  }
  // The profile gone, the model again (plans are cached by the profile they were made with).
  EXPECT_EQ(algo::gpu_variant_of(make_plan(spec, image.view, ElementType::f32, device_)), "chain");
}

// A profile that measures an image algorithm's 8-bit images fastest on an 8-bit RGBA image: the plan
// runs them, and its prediction carries one rounding for each pass whose results are stored
// (Descriptor::image_roundings); returns that plan.
Plan plan_picking_8bit_images(const Device& device, Algorithm algorithm, int stored) {
  vk::Context& context = test::context_of(device);
  auto image = test::make_buffer(ElementType::u8, 160, 120, 1, 4);
  BlurSpec spec;
  spec.sigma = {3.0, 3.0, 0.0};
  spec.algorithm = algorithm;
  const Plan model = make_plan(spec, image.view, ElementType::u8, device);
  EXPECT_EQ(algo::gpu_variant_of(model), "float32-images");
  ProfileOnDevice on(context, profile_of(context, "8-bit images faster",
                                         {{algorithm, "float32-images", 2.0},
                                          {algorithm, "float16-images", 1.5},
                                          {algorithm, "unorm8-images", 0.5}},
                                         160, 120, 3.0, ElementType::u8));
  Plan measured = make_plan(spec, image.view, ElementType::u8, device);
  EXPECT_EQ(algo::gpu_variant_of(measured), "unorm8-images") << describe(measured);
  EXPECT_EQ(measured.schedule.gpu[0].real, ElementType::u8);
  EXPECT_NEAR(measured.predicted_max_error - model.predicted_max_error, stored * algo::kUnorm8Rounding, 1e-12);
  return measured;
}

// fir-linear stores its x pass's results.
TEST_F(VulkanTest, AProfileThatPicks8BitImagesAddsTheirRoundingToThePrediction) {
  plan_picking_8bit_images(device_, Algorithm::fir_linear, 1);
}

// kawase stores each of its passes' results but the last's: 11 of 12 passes at sigma 3; dual-kawase
// its down passes' and its up passes' but the last's: 3 of 4 at its 2 levels there.
TEST_F(VulkanTest, AProfileThatPicksKawases8BitImagesAddsARoundingAStoredPass) {
  const Plan plan = plan_picking_8bit_images(device_, Algorithm::kawase, 11);
  const auto& offsets = algo::resolved_as<algo::KawaseResolved>(plan).offsets;
  EXPECT_EQ(std::max(offsets[0].size(), offsets[1].size()), 12u);
  const Plan dual = plan_picking_8bit_images(device_, Algorithm::dual_kawase, 3);
  EXPECT_EQ(algo::resolved_as<algo::DualKawaseResolved>(dual).schedule.levels, 2);
}

TEST_F(VulkanTest, AMeasuredProfileChangesWhatAutoPicksWithinTheTolerance) {
  vk::Context& context = test::context_of(device_);
  auto image = test::make_buffer(ElementType::f32, 256, 192, 1, 4);
  BlurSpec spec;
  spec.sigma = {8.0, 8.0, 0.0};
  spec.tolerance = 1e-2;
  const Plan model = make_plan(spec, image.view, ElementType::f32, device_);
  // Another algorithm that meets the tolerance, measured 100x faster than every other.
  std::optional<Algorithm> other;
  for (Algorithm a : {Algorithm::box, Algorithm::iir, Algorithm::downsample, Algorithm::fir, Algorithm::dual_kawase}) {
    if (a == model.algorithm) continue;
    BlurSpec named = spec;
    named.algorithm = a;
    try {
      if (make_plan(named, image.view, ElementType::f32, device_).predicted_max_error <= spec.tolerance) {
        other = a;
        break;
      }
    } catch (const Error&) {
    }
  }
  ASSERT_TRUE(other) << "no second candidate within " << spec.tolerance;
  std::vector<Measured> cases;
  for (Algorithm a : {Algorithm::fir, Algorithm::box, Algorithm::iir, Algorithm::downsample, Algorithm::dual_kawase,
                      Algorithm::kawase, Algorithm::fir_linear}) {
    const auto variants = algo::gpu_variants(a);
    for (const std::string& v : variants.empty() ? std::vector<std::string>{""}
                                                  : std::vector<std::string>{std::string(variants[0].name)})
      cases.push_back({a, v, a == *other ? 0.01 : 1.0});
  }
  ProfileOnDevice on(context, profile_of(context, "auto test", cases, 256, 192, 8.0));
  const Plan measured = make_plan(spec, image.view, ElementType::f32, device_);
  EXPECT_EQ(measured.algorithm, *other) << "model's choice " << to_string(model.algorithm) << "\n" << describe(measured);
  EXPECT_LE(measured.predicted_max_error, spec.tolerance);
  EXPECT_FALSE(measured.cost_profile.empty());
}

}  // namespace
}  // namespace fastblur
