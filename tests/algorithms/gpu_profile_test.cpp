// Measured GPU profiles (src/algorithms/gpu_profile.cpp): parsed or refused with a reason, the
// cost read off the measured grid, found by device name, and every bundled profile well formed.
#include "algorithms/gpu_profile.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "algorithms/gpu_variants.hpp"
#include "fastblur/error.hpp"

namespace fastblur::algo {
namespace {

// Two sizes of one format and a volume; fir at two sigmas, downsample in both variants.
const char* kProfile = R"({
  "device": "Test GPU 9000", "driver": "1.2.3", "commit": "abc1234", "date": "2026-11-27",
  "cases": [
    {"algorithm": "fir", "variant": "", "type": "f32", "channels": 4, "extent": [1000, 1000, 1], "sigma": 1, "ms": 1.0, "model_cost": 10},
    {"algorithm": "fir", "variant": "", "type": "f32", "channels": 4, "extent": [1000, 1000, 1], "sigma": 16, "ms": 16.0, "model_cost": 80},
    {"algorithm": "fir", "variant": "", "type": "u8", "channels": 4, "extent": [1000, 1000, 1], "sigma": 1, "ms": 0.5, "model_cost": 10},
    {"algorithm": "fir", "variant": "", "type": "f32", "channels": 1, "extent": [100, 100, 100], "sigma": 1, "ms": 3.0, "model_cost": 10},
    {"algorithm": "downsample", "variant": "chain", "type": "f32", "channels": 4, "extent": [1000, 1000, 1], "sigma": 4, "ms": 0.2, "model_cost": 2},
    {"algorithm": "downsample", "variant": "per-axis", "type": "f32", "channels": 4, "extent": [1000, 1000, 1], "sigma": 4, "ms": 2.0, "model_cost": 2}
  ]})";

Shape image(std::int64_t w, std::int64_t h, std::int64_t d, int channels, ElementType type) {
  Shape s;
  s.extent = {w, h, d};
  s.channels = channels;
  s.source = s.destination = type;
  s.backend = Backend::vulkan;
  return s;
}

TEST(GpuProfile, CorrectionsAreMeasuredRatesOverTheDevicesTypicalRate) {
  const GpuProfile p = parse_gpu_profile(kProfile, "test");
  EXPECT_EQ(p.device, "Test GPU 9000");
  EXPECT_EQ(p.commit, "abc1234");
  ASSERT_EQ(p.cases.size(), 6u);
  // Rates (ms per value and unit of modelled cost): fir f32 2.5e-8 at sigma 1 and 5e-8 at 16, u8
  // 1.25e-8, the volume 3e-7, the chain 2.5e-8, per-axis 2.5e-7: the median (the upper middle) 5e-8.
  EXPECT_NEAR(p.ms_per_cost_value, 5e-8, 1e-15);
  const Shape f32 = image(1000, 1000, 1, 4, ElementType::f32);
  EXPECT_NEAR(*p.correction(Algorithm::fir, "", f32, 1.0), 0.5, 1e-9);
  EXPECT_NEAR(*p.correction(Algorithm::fir, "", f32, 16.0), 1.0, 1e-9);
  // Between measured sigmas: linear in log sigma of the log rate (sigma 4: halfway); clamped outside.
  EXPECT_NEAR(*p.correction(Algorithm::fir, "", f32, 4.0), std::sqrt(0.5), 1e-9);
  EXPECT_NEAR(*p.correction(Algorithm::fir, "", f32, 0.5), 0.5, 1e-9);
  EXPECT_NEAR(*p.correction(Algorithm::fir, "", f32, 50.0), 1.0, 1e-9);
  // The nearest size of the closest format: a quarter of the image reads the same case.
  EXPECT_NEAR(*p.correction(Algorithm::fir, "", image(500, 500, 1, 4, ElementType::f32), 1.0), 0.5, 1e-9);
  // The closest format first (u8's own case), the volume's own case for volumes.
  EXPECT_NEAR(*p.correction(Algorithm::fir, "", image(1000, 1000, 1, 4, ElementType::u8), 1.0), 0.25, 1e-9);
  EXPECT_NEAR(*p.correction(Algorithm::fir, "", image(100, 100, 100, 1, ElementType::f32), 1.0), 6.0, 1e-9);
  // Variants apart; nothing measured: the model.
  EXPECT_NEAR(*p.correction(Algorithm::downsample, "chain", f32, 4.0), 0.5, 1e-9);
  EXPECT_NEAR(*p.correction(Algorithm::downsample, "per-axis", f32, 4.0), 5.0, 1e-9);
  EXPECT_FALSE(p.correction(Algorithm::box, "running-sums", f32, 4.0));
  EXPECT_FALSE(p.correction(Algorithm::downsample, "chain", image(100, 100, 100, 1, ElementType::f32), 4.0));
}

TEST(GpuProfile, MalformedProfilesAreRefusedWithTheirReason) {
  const std::string good = kProfile;
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  for (const std::string& bad :
       {std::string("{"), std::string("[]"), replaced("\"device\"", "\"name\""), replaced("\"fir\"", "\"no-such-blur\""),
        replaced("\"f32\"", "\"f99\""), replaced("\"ms\": 1.0", "\"ms\": -1"), replaced("\"channels\": 4", "\"channels\": 7"),
        replaced("[1000, 1000, 1]", "[1000, 1000]"), replaced("\"sigma\": 1,", "\"sigma\": \"one\","),
        replaced(", \"model_cost\": 10}", "}"), replaced("\"model_cost\": 2}", "\"model_cost\": 0}")}) {
    try {
      parse_gpu_profile(bad, "bad.json");
      ADD_FAILURE() << "accepted: " << bad.substr(0, 120);
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("GPU profile bad.json: "), std::string::npos) << e.what();
    }
  }
}

TEST(GpuProfile, EveryBundledProfileIsWellFormedAndNamesMeasuredVariants) {
  for (const GpuProfile& p : bundled_gpu_profiles()) {
    EXPECT_FALSE(p.device.empty()) << p.source;
    EXPECT_FALSE(p.cases.empty()) << p.source;
    for (const GpuProfileCase& c : p.cases) {
      if (c.variant.empty()) {
        EXPECT_TRUE(gpu_variants(c.algorithm).empty()) << p.source << ": " << to_string(c.algorithm) << " needs its variant";
        continue;
      }
      bool known = false;
      for (const GpuVariant& v : gpu_variants(c.algorithm)) known = known || v.name == c.variant;
      EXPECT_TRUE(known) << p.source << ": no variant " << c.variant << " of " << to_string(c.algorithm);
    }
  }
}

// FASTBLUR_GPU_PROFILE: the file used for its own device; a missing, malformed or other device's
// file gives one warning and the model.
TEST(GpuProfile, TheEnvironmentsProfileOrOneWarningAndTheModel) {
  const std::string dir = ::testing::TempDir();
  const std::string good = dir + "fastblur_profile_good.json", bad = dir + "fastblur_profile_bad.json";
  std::ofstream(good) << kProfile;
  std::ofstream(bad) << "{\"device\": \"Test GPU 9000\", \"cases\": [";
  const char* before = std::getenv("FASTBLUR_GPU_PROFILE");
  const std::string saved = before ? before : "";
  setenv("FASTBLUR_GPU_PROFILE", good.c_str(), 1);
  ::testing::internal::CaptureStderr();
  const auto found = gpu_profile_for("Test GPU 9000");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->source, good);
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(gpu_profile_for("Another GPU"));
  EXPECT_NE(::testing::internal::GetCapturedStderr().find("the profile of 'Test GPU 9000', not of 'Another GPU'"),
            std::string::npos);
  for (const std::string& path : {bad, dir + "fastblur_no_such_profile.json"}) {
    setenv("FASTBLUR_GPU_PROFILE", path.c_str(), 1);
    ::testing::internal::CaptureStderr();
    EXPECT_FALSE(gpu_profile_for("Test GPU 9000"));
    EXPECT_FALSE(gpu_profile_for("Test GPU 9000"));  // asked again: no second warning
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("fastblur: warning: GPU profile " + path), std::string::npos) << err;
    EXPECT_NE(err.find("costs from the model"), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << "one line, once: " << err;
  }
  if (before) setenv("FASTBLUR_GPU_PROFILE", saved.c_str(), 1);
  else unsetenv("FASTBLUR_GPU_PROFILE");
  std::remove(good.c_str());
  std::remove(bad.c_str());
}

}  // namespace
}  // namespace fastblur::algo
